/**
 * Scripted policies for the built-in robot tasks. The tool arm replays each task's reference
 * solution call by call; the code arm writes a few cells per task, each a phase of the same
 * solution (see cellLibrary.ts), reading every cell's output before writing the next.
 */
import { hashSeed, Rng } from '../../tasks/prng';
import { getTask } from '../../tasks/registry';
import type { TaskGoal } from '../../tasks/types';
import { CELL_HELPERS, q } from './cellLibrary';
import { toolPlanFromSolution } from './fromSolution';
import type { CellPlan, PolicyResolver, StepResult } from './policy';

/** A phase: the cell's code; `check` reads its output and says whether to go on. */
interface Phase {
  code: string;
  /** Retries of this phase when its cell failed (the planner rewrites nothing: it re-runs it). */
  retries?: number;
}

type CellScript = (goal: TaskGoal) => Phase[];

const pickPhase = (object: string): Phase => ({ code: `${CELL_HELPERS}var picked = pickUp(${q(object)});\nconsole.log(JSON.stringify(picked));`, retries: 1 });

/** Cells per task id: the phases of its reference solution. */
export const CELL_SCRIPTS: Record<string, CellScript> = {
  'pp-cube-in-bowl': (g) => [
    pickPhase(g.object),
    { code: `var dest = locate(${q(g.container)});\nplaceAt(picked, [dest.position[0], dest.position[1], 0.04 + picked.halfHeight + 0.015]);\nconsole.log('placed in ' + dest.name);` },
  ],
  'pp-cube-on-plate': (g) => [
    pickPhase(g.object),
    { code: `var dest = locate(${q(g.target)});\nplaceAt(picked, [dest.position[0], dest.position[1], dest.position[2] + picked.halfHeight + 0.004]);\nconsole.log('placed on ' + dest.name);` },
  ],
  'pp-cube-to-square': (g) => [
    pickPhase(g.object),
    { code: `var dest = locate(${q(g.target)});\nplaceAt(picked, [dest.position[0], dest.position[1], picked.halfHeight + 0.004]);\nconsole.log('placed on ' + dest.name);` },
  ],
};

function failed(r: StepResult): boolean {
  return /(^|\n)Error: /.test(r.text) || /\[stopped: /.test(r.text);
}

async function* cellPlan(phases: Phase[]): CellPlan {
  for (const [i, phase] of phases.entries()) {
    let r = yield { code: phase.code };
    if (/\[episode finished/.test(r.text)) return { status: 'success', summary: `the task was solved during phase ${i + 1}` };
    for (let n = 0; failed(r) && n < (phase.retries ?? 0); n++) r = yield { code: `// retry of phase ${i + 1}\n${phase.code}` };
    if (failed(r)) return { status: 'failure', summary: `phase ${i + 1} of ${phases.length} failed: ${r.text.split('\n').find((l) => l.startsWith('Error') || l.startsWith('[stopped')) ?? r.text.slice(0, 200)}` };
  }
  return { status: 'success', summary: `ran all ${phases.length} phases` };
}

// An async generator that ends at once: the planner then calls finish(failure) and says why.
async function* noCellScript(taskId: string): CellPlan {
  return { status: 'failure', summary: `the scripted planner has no code-arm cells for task ${taskId}` };
}

export function instanceGoal(taskId: string, variant: string, seed: number): TaskGoal {
  const task = getTask(taskId);
  return task.setup(new Rng(hashSeed(task.id, variant, seed)), variant).goal;
}

export const robotPolicies: PolicyResolver = (inst) => {
  let goal: TaskGoal;
  try {
    goal = instanceGoal(inst.taskId, inst.variant, inst.seed);
  } catch {
    return null;
  }
  const task = getTask(inst.taskId);
  const script = CELL_SCRIPTS[inst.taskId];
  return {
    tools: () => toolPlanFromSolution(task.solution, goal),
    cells: () => (script ? cellPlan(script(goal)) : noCellScript(inst.taskId)),
  };
};
