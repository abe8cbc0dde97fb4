/**
 * NavigateKitchen (atomic-seen), from `atomic/kitchen_navigate.py`: the robot starts in front of one
 * fixture and drives its base (base.ts) to another at least 1 m away. RoboCasa's check: the base's
 * xy within 0.20 m of the placement pose in front of the target fixture
 * (`compute_robot_base_placement_pose`) and cos(yaw error) ≥ 0.98. The placement pose is never in the
 * model's view: `state` gives the floor plan (every fixture's pose, footprint and front direction,
 * every counter's footprint) and the base's own pose, from which "in front of it" is worked out.
 */
import type { Rng } from '../../../../prng';
import type { Sim } from '../../../../sim/sim';
import { call, type Steps } from '../../tasks/solutions/steps';
import type { TaskGoal } from '../../tasks/types';
import { basePose, type BasePose } from './base';
import { kitchenTask } from './define';
import { type FloorPlan, type Footprint } from './floorplan';
import { verdict } from './judging';
import { COUNTER_FRONT_X, type Kitchen, type MainKind } from './kitchen';

/** RoboCasa's `_check_success` thresholds. */
export const NAV_POS_M = 0.2;
export const NAV_COS = 0.98;
/** RoboCasa's `fixture_pairwise_dist(src, target) <= 1.0` is redrawn. */
const MIN_APART_M = 1.0;
/**
 * Where our robot stands to work a fixture in every kitchen task: its base this far in front of the
 * counter's front edge, facing the fixture (RoboCasa's placement stands 0.20 m off the counter's
 * outer box, which for its larger base reads the same).
 */
export const STANDOFF_M = COUNTER_FRONT_X;

/** RoboCasa enables these for the task (its toaster oven is in every kitchen of ours). */
const ENABLE: readonly MainKind[] = ['electric_kettle', 'stand_mixer'];
/** RoboCasa's `valid_src_fixture_classes` that our kitchens have (the main run's fixtures). */
const SOURCES: readonly MainKind[] = ['sink', 'stove', 'microwave', 'coffee_machine', 'cabinet', 'drawer', 'toaster_oven', 'dishwasher', ...ENABLE];
/** Its `valid_target_fxtr_classes` (one of a class in the kitchen) that our kitchens have. */
export const TARGETS: readonly MainKind[] = ['sink', 'stove', 'microwave', 'coffee_machine', 'toaster_oven', 'dishwasher', ...ENABLE];

/** The placement pose in front of a main-run fixture: the base STANDOFF_M in front of the counter's front edge, facing it. */
export function placementPose(kitchen: Kitchen, fixture: string): BasePose {
  const pf = kitchen.fixture(fixture);
  if (Math.abs(pf.yaw) > 1e-9) throw new Error(`placementPose: ${fixture} is not on the main run (yaw ${pf.yaw})`);
  return { position: [COUNTER_FRONT_X - STANDOFF_M, pf.pos[1]], yaw: 0 };
}

/** RoboCasa's `_check_success` on the base's measured pose. */
export function navigationVerdict(sim: Sim, target: BasePose, label: string) {
  const p = basePose(sim);
  const d = Math.hypot(p.position[0] - target.position[0], p.position[1] - target.position[1]);
  const c = Math.cos(p.yaw - target.yaw);
  return verdict([
    { ok: d <= NAV_POS_M, says: `the base is ${d.toFixed(3)} m from the placement pose in front of the ${label} (needs at most ${NAV_POS_M} m)` },
    { ok: c >= NAV_COS, says: `the cosine of its heading error is ${c.toFixed(4)} (needs at least ${NAV_COS})` },
  ]);
}

/** The point where the ray from `p` along `dir` leaves every footprint it starts in or meets (1 cm steps). */
function leaveFootprints(p: [number, number], dir: [number, number], boxes: Footprint[]): [number, number] {
  const inside = (q: [number, number]): boolean => boxes.some((b) => q[0] >= b.min[0] && q[0] <= b.max[0] && q[1] >= b.min[1] && q[1] <= b.max[1]);
  let q = p;
  for (let i = 0; i < 300 && inside(q); i++) q = [q[0] + 0.01 * dir[0], q[1] + 0.01 * dir[1]];
  return q;
}

/**
 * Reads the floor plan, finds the counter's front edge in front of the target fixture, and drives
 * the base STANDOFF_M out from it, facing the fixture, in one straight move.
 */
async function* solution(goal: TaskGoal): Steps {
  const s = (yield call('state')) as { floorPlan: FloorPlan };
  const f = s.floorPlan.fixtures.find((x) => x.name === goal.target);
  if (!f) throw new Error(`solution: no fixture "${goal.target}" in the floor plan`);
  const edge = leaveFootprints(f.position, f.front, [...s.floorPlan.counters, ...s.floorPlan.fixtures]);
  const xy: [number, number] = [edge[0] + STANDOFF_M * f.front[0], edge[1] + STANDOFF_M * f.front[1]];
  yield call('move_base', { xy, yaw: Math.atan2(-f.front[1], -f.front[0]) });
}

export const navigateKitchen = kitchenTask<{ fixture: string }>({
  name: 'NavigateKitchen',
  group: 'atomic-seen',
  target: (rng: Rng) => rng.pick(SOURCES),
  mobileBase: true,
  enable: ENABLE,
  phrasings: ({ fixture }) => [
    `Navigate to the ${fixture}.`,
    `Drive over to the ${fixture}.`,
    `Go to the ${fixture} and face it.`,
    `Move the robot to the ${fixture}.`,
  ],
  defaultWords: { fixture: 'microwave' },
  fixtures: () => ({}),
  instance(rng, kitchen, source) {
    const at = (k: string): [number, number] => {
      const p = kitchen.fixture(k).pos;
      return [p[0], p[1]];
    };
    const s = at(source);
    const far = TARGETS.filter((k) => k !== source && Math.hypot(at(k)[0] - s[0], at(k)[1] - s[1]) > MIN_APART_M);
    if (far.length === 0) throw new Error(`NavigateKitchen: kitchen ${kitchen.spec.id} has no target fixture over ${MIN_APART_M} m from the ${source}`);
    const target = rng.pick(far);
    const pose = placementPose(kitchen, target);
    const label = kitchen.fixture(target).fixture.label;
    return {
      words: { fixture: label },
      goal: { target },
      objects: [],
      judge: (j) => navigationVerdict(j.sim, pose, label),
    };
  },
  solution,
});

export const navigateTasks = [navigateKitchen];
