/**
 * Scripted policies: deterministic plans per task instance, as generators that yield the next
 * action and receive its result. The planner replays a policy against the conversation so far, so
 * it keeps no state of its own and answers the same conversation the same way (in-process or
 * behind the test server).
 */
import type { InstanceRef } from '../../../../src-shared/episode';
import type { NamedArgs } from '../../primitives/types';

/** What an action returned, as the model saw it. */
export interface StepResult {
  ok: boolean;
  /** The text of the tool message. */
  text: string;
  /** `text` parsed as JSON when it is JSON, else null. */
  value: unknown;
}

export interface PlannedFinish {
  status: 'success' | 'failure';
  summary: string;
}

export type ToolPlan = AsyncGenerator<{ name: string; args: NamedArgs }, PlannedFinish, StepResult>;
export type CellPlan = AsyncGenerator<{ code: string }, PlannedFinish, StepResult>;

export interface ScriptedPolicy {
  /** One primitive per step (the tool-calling arm). */
  tools(): ToolPlan;
  /** One cell per step (the code arm), each bundling a phase of the task. */
  cells(): CellPlan;
}

/** Finds the policy for an instance; null when the planner has none (the reply then says so). */
export type PolicyResolver = (instance: InstanceRef) => ScriptedPolicy | null;

export function stepResult(text: string, ok: boolean): StepResult {
  let value: unknown = null;
  try {
    value = JSON.parse(text);
  } catch {
    value = null;
  }
  return { ok, text, value };
}
