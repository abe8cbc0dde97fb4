/**
 * The tool-calling arm's scripted plan, straight from a task's reference solution: each call the
 * solution yields becomes one tool call, and the tool message's result (or error) is handed back to
 * the solution before it decides the next call.
 */
import { PrimitiveError } from '../../primitives/types';
import type { Solution, TaskGoal } from '../../tasks/types';
import type { ToolPlan } from './policy';

interface ToolMessageBody {
  ok?: boolean;
  result?: unknown;
  error?: string;
  finished?: boolean;
}

export async function* toolPlanFromSolution(solution: Solution, goal: TaskGoal): ToolPlan {
  const gen = solution(goal);
  try {
    let next = await gen.next();
    while (!next.done) {
      const r = yield { name: next.value.primitive, args: next.value.args };
      const body = (r.value ?? {}) as ToolMessageBody;
      if (body.finished) return { status: 'success', summary: 'the episode reports the task solved' };
      if (body.ok === false) next = await gen.throw(new PrimitiveError(String(body.error ?? r.text).replace(/^PrimitiveError: /, '')));
      else next = await gen.next(body.result);
    }
    return { status: 'success', summary: 'the reference plan ran to its end' };
  } catch (err) {
    return { status: 'failure', summary: `the reference plan gave up: ${err instanceof Error ? err.message : String(err)}` };
  }
}
