/**
 * System prompts and the API reference, generated from the primitive registry so the two arms
 * cannot drift apart: tool schemas for the tool-calling arm, a JavaScript signature list for the
 * code arm.
 */
import { z } from 'zod';
import type { Arm, InstanceRef, ToolDef } from '../../../src-shared/episode';
import type { ParamDoc, PrimitiveSpec } from '../primitives/types';
import { instanceLine } from './scripted/planner';

export const FINISH_TOOL: ToolDef = {
  name: 'finish',
  description: 'End the episode. Call it when the task is done or cannot be done.',
  parameters: {
    type: 'object',
    properties: {
      status: { type: 'string', enum: ['success', 'failure'], description: 'Whether you believe the task is done.' },
      summary: { type: 'string', description: 'One or two sentences on what happened.' },
    },
    required: ['status', 'summary'],
    additionalProperties: false,
  },
};

export const JAVASCRIPT_TOOL: ToolDef = {
  name: 'javascript',
  description:
    'Run a cell of JavaScript against the `robo` API (see the system prompt). Calls are synchronous; variables persist between cells. The reply holds what the cell printed with console.log and the value of its last expression.',
  parameters: {
    type: 'object',
    properties: { code: { type: 'string', description: 'The JavaScript to run.' } },
    required: ['code'],
    additionalProperties: false,
  },
};

function paramSchema(p: ParamDoc): Record<string, unknown> {
  let schema: Record<string, unknown>;
  try {
    schema = z.toJSONSchema(p.schema, { unrepresentable: 'any', io: 'input' }) as Record<string, unknown>;
  } catch {
    schema = {};
  }
  delete schema.$schema;
  return { ...schema, description: `${p.type}. ${p.doc}` };
}

function returnsText(spec: PrimitiveSpec): string {
  return spec.returns.length ? ` Returns { ${spec.returns.map((r) => `${r.name}: ${r.type}`).join(', ')} }.` : '';
}

/** One tool per primitive; the arguments object holds the positional and option parameters by name. */
export function primitiveTools(specs: PrimitiveSpec[]): ToolDef[] {
  return specs.map((s) => {
    const params = [...s.positional, ...s.options];
    return {
      name: s.name,
      description: `${s.summary}${returnsText(s)}`,
      parameters: {
        type: 'object',
        properties: Object.fromEntries(params.map((p) => [p.name, paramSchema(p)])),
        required: s.positional.filter((p) => !p.optional).map((p) => p.name),
        additionalProperties: false,
      },
    };
  });
}

/** `robo.name(a: T, b: T, { opt?: T })  → { … }  — summary` per primitive, with parameter docs. */
export function jsSignatures(specs: PrimitiveSpec[]): string {
  return specs
    .map((s) => {
      const pos = s.positional.map((p) => `${p.name}${p.optional ? '?' : ''}: ${p.type}`);
      if (s.options.length) pos.push(`{ ${s.options.map((o) => `${o.name}?: ${o.type}`).join(', ')} }?`);
      const ret = s.returns.length ? ` → { ${s.returns.map((r) => `${r.name}: ${r.type}`).join(', ')} }` : '';
      const docs = [...s.positional, ...s.options].map((p) => `    ${p.name}: ${p.doc}`);
      const rets = s.returns.map((r) => `    returns.${r.name}: ${r.doc}`);
      return [`robo.${s.name}(${pos.join(', ')})${ret}`, `    ${s.summary}${s.motion ? ' (moves the robot)' : ''}`, ...docs, ...rets].join('\n');
    })
    .join('\n');
}

export interface PromptInput {
  arm: Arm;
  instance: InstanceRef;
  instruction: string;
  specs: PrimitiveSpec[];
  cameras: readonly string[];
  imagesAfterMotion: boolean;
}

export function systemPrompt(p: PromptInput): string {
  const card = ['# Task', p.instruction, '', instanceLine(p.instance)].join('\n');
  const shared = [
    'You control a simulated robot through a fixed set of primitives. Positions are in metres in the world frame (x forward, y left, z up); angles in radians.',
    'The episode ends by itself as soon as the task is solved. Call `finish` if you decide to stop. Your budget of model calls is limited: be efficient.',
  ];
  if (p.arm === 'tools') {
    return [
      ...shared,
      'Call exactly one tool per reply: each primitive is a tool (their schemas are your API reference). You see each result before deciding the next step.',
      p.imagesAfterMotion ? `After every motion you receive images from the cameras (${p.cameras.join(', ')}) and the robot state.` : 'After every motion you receive the robot state.',
      '',
      card,
    ].join('\n');
  }
  return [
    ...shared,
    'Write JavaScript cells with the `javascript` tool. Inside a cell, `robo.<primitive>(…)` calls run synchronously and return plain objects; they throw on misuse (catch errors to branch or retry). Variables persist between cells. Use console.log to see values: you only get what the cell prints or returns. Bundle several steps into one cell where you can.',
    '',
    '# API reference',
    jsSignatures(p.specs),
    '',
    card,
  ].join('\n');
}
