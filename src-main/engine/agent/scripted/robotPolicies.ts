/**
 * Scripted policies for the built-in robot tasks. The tool arm replays each task's reference
 * solution call by call; the code arm writes a few cells per task, each a phase of the same
 * solution (see cellLibrary.ts), reading every cell's output before writing the next.
 */
import { hashSeed, Rng } from '../../tasks/prng';
import { getTask } from '../../tasks/registry';
import type { TaskGoal } from '../../tasks/types';
import { DRAWER, TRAY } from '../../tasks/objects';
import { CELL_HELPERS, CELL_HELPERS_MORE, q } from './cellLibrary';
import { toolPlanFromSolution } from './fromSolution';
import type { CellPlan, PolicyResolver, StepResult } from './policy';

/** A phase: the cell's code; `check` reads its output and says whether to go on. */
interface Phase {
  code: string;
  /** Retries of this phase when its cell failed (the planner rewrites nothing: it re-runs it). */
  retries?: number;
}

type CellScript = (goal: TaskGoal) => Phase[];

const HELPERS = `${CELL_HELPERS}${CELL_HELPERS_MORE}`;
/** The first cell of every script defines the helpers, then does its phase. */
const first = (code: string, retries = 1): Phase => ({ code: `${HELPERS}${code}`, retries });
const pickPhase = (object: string, arm?: string): Phase => first(`var picked = pickUp(${q(object)}${arm ? `, ${q(arm)}` : ''});\nconsole.log(JSON.stringify(picked));`);
const BOWL_DROP_Z = '0.04 + picked.halfHeight + 0.015';

/** Cells per task id: the phases of its reference solution. */
export const CELL_SCRIPTS: Record<string, CellScript> = {
  'pp-cube-in-bowl': (g) => [
    pickPhase(g.object),
    { code: `var dest = locate(${q(g.container)});\nplaceAt(picked, [dest.position[0], dest.position[1], ${BOWL_DROP_Z}]);\nconsole.log('placed in ' + dest.name);` },
  ],
  'pp-cube-on-plate': (g) => [
    pickPhase(g.object),
    { code: `var dest = locate(${q(g.target)});\nplaceAt(picked, [dest.position[0], dest.position[1], dest.position[2] + picked.halfHeight + 0.004]);\nconsole.log('placed on ' + dest.name);` },
  ],
  'pp-cube-to-square': (g) => [
    pickPhase(g.object),
    { code: `var dest = locate(${q(g.target)});\nplaceAt(picked, [dest.position[0], dest.position[1], picked.halfHeight + 0.004]);\nconsole.log('placed on ' + dest.name);` },
  ],
  'st-two-cubes': (g) => [first(`console.log(stackOn(${q(g.top)}, ${q(g.bottom)}));\nsettle();`)],
  'st-tower-three': (g) => [first(`console.log(stackOn(${q(g.middle)}, ${q(g.bottom)}));`), { code: `console.log(stackOn(${q(g.top)}, ${q(g.middle)}));\nsettle();`, retries: 0 }],
  'st-small-on-large': (g) => [first(`var small = locate(${q(g.top)}), large = locate(${q(g.bottom)});\nconsole.log(stackOn(small.name, large.name));\nsettle();`)],
  'ar-open-drawer': () => [first(`console.log('handle now at ' + JSON.stringify(openDrawer()));`, 0)],
  'ar-close-drawer': () => [
    first(
      [
        `var h = locate('drawer_handle'), c = locate('cabinet');`,
        `var hx = h.position[0], hy = h.position[1], hz = h.position[2];`,
        `var closedX = c.position[0] + ${DRAWER.handle[0]};`,
        `moveTo([hx - 0.05, hy, hz + 0.1], { yaw: 0, gripper: 'CLOSE' });`,
        `moveTo([hx - 0.05, hy, hz - 0.01], { tolM: 0.01 });`,
        `moveTo([closedX - 0.02 + 0.008, hy, hz - 0.01], { tolM: 0.03 });`,
        `moveTo([closedX - 0.07, hy, hz - 0.01], { tolM: 0.01 });`,
        `moveTo([closedX - 0.07, hy, hz + 0.1], { tolM: 0.01 });`,
        `console.log('pushed the drawer closed');`,
      ].join('\n'),
      0,
    ),
  ],
  'ar-block-in-drawer': (g) => [
    first(`openDrawer();\nvar picked = pickUp(${q(g.object)}, undefined, 0.2);\nconsole.log(JSON.stringify(picked));`, 0),
    {
      code: [
        `var d = locate(${q(g.drawer)}), c = locate('cabinet');`,
        `var frontX = d.position[0] + ${DRAWER.inside.x[0]}, cabinetFrontX = c.position[0] - 0.15;`,
        `placeAt(picked, [(frontX + cabinetFrontX) / 2, d.position[1], ${DRAWER.inside.z[0]} + picked.halfHeight + 0.012], undefined, 0.2);`,
        `settle();`,
        `console.log('placed in the drawer');`,
      ].join('\n'),
    },
  ],
  'bi-handover': (g) => [
    first(`var picked = pickUp(${q(g.object)}, ${q(g.from)});\nplaceAt(picked, [0.48, 0, picked.halfHeight + 0.004], ${q(g.from)});\npark(${q(g.from)});\nconsole.log('set down in the middle');`, 0),
    { code: `var taken = pickUp(${q(g.object)}, ${q(g.to)}, 0.16);\nconsole.log(JSON.stringify(taken));`, retries: 1 },
  ],
  'bi-lift-tray': (g) => [
    first(
      [
        `var t = locate(${q(g.tray)});`,
        `function fin(arm) { return [t.position[0], t.position[1] + (arm === 'left' ? ${TRAY.finY} : -${TRAY.finY}), t.position[2] + ${TRAY.finZ} + 0.005]; }`,
        `['left', 'right'].forEach(function (arm) { var f = fin(arm); moveTo([f[0], f[1], f[2] + 0.1], { yaw: t.yaw, gripper: 0.05 }, arm); moveTo(f, { tolM: 0.01 }, arm); });`,
        `['left', 'right'].forEach(function (arm) { var gr = robo.grasp({ arm: arm }); if (!gr.success) throw new Error('the ' + arm + ' arm missed the tray handle'); });`,
        `for (var k = 1; k <= 6; k++) ['left', 'right'].forEach(function (arm) { var f = fin(arm); moveTo([f[0], f[1], f[2] + k * 0.02], { tolM: 0.01 }, arm); });`,
        `console.log('lifted');`,
      ].join('\n'),
      0,
    ),
  ],
  'bi-cubes-in-bowl': (g) =>
    (['left', 'right'] as const).map((arm, i) => {
      const body = `var picked = pickUp(${q(g[arm])}, ${q(arm)});\nvar b = locate(${q(g.container)});\nplaceAt(picked, [b.position[0], b.position[1] + ${arm === 'left' ? 0.03 : -0.03}, ${BOWL_DROP_Z}], ${q(arm)});\npark(${q(arm)});${i === 1 ? '\nsettle();' : ''}\nconsole.log(${q(`${arm} cube in the bowl`)});`;
      return i === 0 ? first(body, 0) : { code: body };
    }),
  'ms-sort-by-colour': (g) =>
    g.colours.split(', ').map((c, i, all) => {
      const body = `var picked = pickUp(${q(`${c}_cube`)});\nvar p = locate(${q(`${c}_plate`)});\nplaceAt(picked, [p.position[0], p.position[1], p.position[2] + picked.halfHeight + 0.004]);${i === all.length - 1 ? '\nsettle();' : ''}\nconsole.log(${q(`${c} sorted`)});`;
      return i === 0 ? first(body, 0) : { code: body };
    }),
  'ms-all-in-bowl': (g) => [
    first(`var cubes = robo.state().objects.filter(function (o) { return o.kind === ${q(g.kind)}; }).map(function (o) { return o.name; });\nconsole.log(JSON.stringify(cubes));`, 0),
    {
      code: [
        `var spots = [[0.03, 0], [-0.016, 0.028], [-0.016, -0.028]];`,
        `cubes.forEach(function (name, i) {`,
        `  var picked = pickUp(name);`,
        `  var b = locate(${q(g.container)});`,
        `  placeAt(picked, [b.position[0] + spots[i % 3][0], b.position[1] + spots[i % 3][1], ${BOWL_DROP_Z}]);`,
        `  console.log(name + ' in the bowl');`,
        `});`,
        `settle();`,
      ].join('\n'),
    },
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
