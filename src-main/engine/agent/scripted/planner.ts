/**
 * The scripted planner as a `Model`: reads the instance from the system prompt, the arm from the
 * offered tools, and the actions taken so far from the conversation, then answers with the next
 * step of the instance's policy. Offline and deterministic; labelled "scripted" everywhere.
 */
import type { InstanceRef, Message, ToolCall } from '../../../../src-shared/episode';
import { countTextTokens, estimateContext } from '../../../../src-shared/tokens';
import type { Model, ModelContext, ModelReply } from '../model';
import { stepResult, type PolicyResolver, type StepResult } from './policy';

export const SCRIPTED_MODEL_NAME = 'scripted';
export const SCRIPTED_LABEL = 'scripted (offline planner)';

/** The line every system prompt carries so that a scripted planner can find the instance. */
export function instanceLine(inst: InstanceRef): string {
  return `Instance: task=${inst.taskId} variant=${inst.variant} seed=${inst.seed}`;
}

export function parseInstanceLine(system: string): InstanceRef | null {
  const m = /^Instance: task=(\S+) variant=(\S+) seed=(\d+)$/m.exec(system);
  return m ? { taskId: m[1], variant: m[2], seed: Number(m[3]) } : null;
}

interface Taken {
  call: ToolCall;
  result: StepResult | null;
}

/** Every tool call in the conversation with the tool message that answered it. */
function actionsTaken(messages: Message[]): Taken[] {
  const results = new Map<string, string>();
  for (const m of messages) if (m.role === 'tool') results.set(m.toolCallId, m.content);
  const taken: Taken[] = [];
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const call of m.toolCalls ?? []) {
      const text = results.get(call.id);
      taken.push({ call, result: text === undefined ? null : stepResult(text, !/^(error|Error)\b/.test(text) && !text.startsWith('{"ok":false')) });
    }
  }
  return taken;
}

function sameArgs(a: string, b: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(b);
  } catch {
    return false;
  }
}

/** Derived from the conversation, so the same conversation always gets the same reply. */
function callId(messages: Message[]): string {
  const made = messages.reduce((n, m) => n + (m.role === 'assistant' ? (m.toolCalls?.length ?? 0) : 0), 0);
  return `call_s${made + 1}`;
}

export interface ScriptedDecision {
  toolCall: { name: string; arguments: string } | null;
  text: string | null;
}

/**
 * The next step for this conversation. Recorded calls that do not match the plan's next step (a
 * fault the test server injected, say) are skipped, so the plan resumes where it was.
 */
export async function decide(messages: Message[], toolNames: string[], resolve: PolicyResolver): Promise<ScriptedDecision> {
  const system = messages.find((m) => m.role === 'system');
  const inst = system && typeof system.content === 'string' ? parseInstanceLine(system.content) : null;
  if (!inst) return { toolCall: null, text: 'The scripted planner found no "Instance:" line in the system prompt; it only drives built-in tasks.' };
  const policy = resolve(inst);
  if (!policy) return { toolCall: null, text: `The scripted planner has no plan for task ${inst.taskId} (variant ${inst.variant}).` };
  const codeArm = toolNames.includes('javascript');
  const taken = actionsTaken(messages);
  const finish = (status: string, summary: string) => ({ toolCall: { name: 'finish', arguments: JSON.stringify({ status, summary }) }, text: null });
  if (codeArm) {
    const plan = policy.cells();
    let step = await plan.next(stepResult('', true));
    for (const t of taken) {
      if (step.done) break;
      if (t.call.name !== 'javascript' || !t.result || !sameArgs(t.call.arguments, { code: step.value.code })) continue;
      step = await plan.next(t.result);
    }
    if (step.done) return finish(step.value.status, step.value.summary);
    return { toolCall: { name: 'javascript', arguments: JSON.stringify({ code: step.value.code }) }, text: null };
  }
  const plan = policy.tools();
  let step = await plan.next(stepResult('', true));
  for (const t of taken) {
    if (step.done) break;
    if (t.call.name !== step.value.name || !t.result || !sameArgs(t.call.arguments, step.value.args)) continue;
    step = await plan.next(t.result);
  }
  if (step.done) return finish(step.value.status, step.value.summary);
  return { toolCall: { name: step.value.name, arguments: JSON.stringify(step.value.args) }, text: null };
}

/** Usage as a real API would report it, from the local tokenizer. */
export function scriptedUsage(ctx: { messages: Message[]; tools: ModelContext['tools'] }, d: ScriptedDecision) {
  const inputTokens = estimateContext(ctx.messages, ctx.tools).total;
  const outputTokens = (d.text ? countTextTokens(d.text) : 0) + (d.toolCall ? countTextTokens(d.toolCall.name) + countTextTokens(d.toolCall.arguments) + 3 : 0);
  return { inputTokens, cachedInputTokens: 0, outputTokens };
}

export function createScriptedModel(resolve: PolicyResolver): Model {
  return {
    info: { name: SCRIPTED_MODEL_NAME, label: SCRIPTED_LABEL, scripted: true, baseUrl: null },
    async complete(ctx, opts): Promise<ModelReply> {
      if (opts?.signal?.aborted) throw new Error('aborted');
      const d = await decide(ctx.messages, ctx.tools.map((t) => t.name), resolve);
      const toolCalls = d.toolCall ? [{ id: callId(ctx.messages), ...d.toolCall }] : [];
      if (d.text) opts?.onDelta?.({ text: d.text });
      for (const [index, c] of toolCalls.entries()) opts?.onDelta?.({ toolCall: { index, name: c.name, argumentsDelta: c.arguments } });
      return {
        text: d.text,
        toolCalls,
        refusal: null,
        finishReason: toolCalls.length ? 'tool_calls' : 'stop',
        usage: scriptedUsage(ctx, d),
        retries: 0,
        raw: { scripted: true },
      };
    },
  };
}
