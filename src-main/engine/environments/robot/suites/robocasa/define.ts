/**
 * A RoboCasa task on our kitchens: `robocasa/<TaskName>` in one of the three Target50 groups. An
 * instance draws its kitchen (a development kitchen, or with variant `heldout` one of the 10
 * held-out kitchens), the fixture state and objects the task's RoboCasa class sets up, and is
 * judged by that class's `_check_success` (judging.ts) against the live fixture state.
 */
import type { Verdict } from '../../../contract/environment';
import type { JudgeContext } from '../../tasks/judge';
import { defineTask, type Phrasings } from '../../tasks/define';
import type { SceneObject } from '../../tasks/objects';
import type { RobotWorld } from '../../primitives/world';
import type { Solution, TaskDef, TaskFamily, TaskGoal } from '../../tasks/types';
import type { Rng } from '../../../../prng';
import { buildKitchen, devKitchen, type FixtureSetup, heldOutKitchen, type Kitchen, type MainKind, DEV_KITCHENS, HELD_OUT_KITCHENS } from './kitchen';
import type { KitchenObject } from './objects';
import { withDiningCounter } from './dining';
import { kitchenPrimitives } from './primitives';
import { KitchenRuntime } from './runtime';
import { buildKitchenScene } from './scene';
import { BASE_STATE_FIELD, basePrimitives, baseState, withMobileBase } from './base';
import { FLOOR_PLAN_FIELD, floorPlan } from './floorplan';

export type Group = 'atomic-seen' | 'composite-seen' | 'composite-unseen';

/** RoboCasa's spawn deviation along the counter (m). */
const OFFSET_Y_M = 0.05;

export interface KitchenInstance<W> {
  words: W;
  goal: TaskGoal;
  objects: KitchenObject[];
  judge(j: JudgeContext, rt: KitchenRuntime): Verdict;
  /** What RoboCasa's `update_state` keeps over the episode (a wash timer, scrub contacts): run once per its control step, kept in snapshots. */
  tracker?(world: RobotWorld, rt: KitchenRuntime): StepTracker;
}

export interface StepTracker {
  step(): void;
  save(): unknown;
  load(v: unknown): void;
}

/** RoboCasa's control period (20 Hz): its tasks' `update_state` runs once per control step. */
export const CONTROL_STEP_SEC = 0.05;

function attachTracker(world: RobotWorld, t: StepTracker): void {
  const every = Math.max(1, Math.round(CONTROL_STEP_SEC / world.sim.timestepSec));
  let n = 0;
  world.sim.addController(() => {
    if (++n % every === 0) t.step();
  });
  world.sim.addStateProvider({
    key: 'robocasa_task',
    save: () => ({ n, t: t.save() }),
    load: (v) => {
      const s = v as { n: number; t: unknown };
      n = s.n;
      t.load(s.t);
    },
  });
}

export interface KitchenTaskSpec<W> {
  /** RoboCasa's class name. */
  name: string;
  group: Group;
  /**
   * The fixture the robot is placed in front of (RoboCasa's `init_robot_base_ref`); a function draws
   * it per instance (NavigateKitchen's start), after the fixture state.
   */
  target: MainKind | ((rng: Rng) => MainKind);
  /** A second fixture the task works, placed beside the first (the robot then faces the pair). */
  beside?: MainKind;
  /** Which side of the target `beside` stands on ('left' is +y); default: away from the kitchen's door hinge. */
  besideSide?: 'left' | 'right';
  /**
   * The robot stands in front of the counter beside the target, this far (m) from the target's centre
   * along the counter, on a side drawn per instance (RoboCasa's `init_robot_base_ref` on that counter).
   */
  counterBesideM?: number;
  /** On-request fixtures the kitchen has whatever the target (RoboCasa's `enable_fixtures`). */
  enable?: readonly MainKind[];
  /** The kitchen gets RoboCasa's dining counter, beside the robot (dining.ts). */
  dining?: boolean;
  /**
   * The robot's base is driven by the model (base.ts): `move_base` and the `base` and `floorPlan`
   * state fields join, and the fixture primitives stay out (their motions are tuned for a robot
   * standing square in front of a fixture, and the one task with a moving base does not need them).
   */
  mobileBase?: boolean;
  /** RoboCasa's instruction first; then three variations (RoboCasa's own for composites, ours for atomic tasks). */
  phrasings(words: W): Phrasings;
  defaultWords: W;
  /** The fixture state the task sets up (`_setup_scene`), drawn from the instance's stream. */
  fixtures(rng: Rng): FixtureSetup;
  /** Objects (`_get_obj_cfgs`), words, goal and the judge (`_check_success`); `target` is the fixture the robot stands at. */
  instance(rng: Rng, kitchen: Kitchen, target: MainKind): KitchenInstance<W>;
  solution: Solution;
}

const family = (g: Group): TaskFamily => `robocasa-${g}` as TaskFamily;

export function kitchenTask<W>(spec: KitchenTaskSpec<W>): TaskDef {
  return defineTask<W>({
    id: `robocasa/${spec.name}`,
    family: family(spec.group),
    robot: 'arm7',
    phrasings: spec.phrasings,
    defaultWords: spec.defaultWords,
    variants: [
      { id: 'default', doc: `one of the ${DEV_KITCHENS} development kitchens (layout, style, fixture order by seed)` },
      { id: 'heldout', doc: `one of the ${HELD_OUT_KITCHENS} held-out kitchens (never used to tune anything)` },
    ],
    setup(rng, variant) {
      const kitchenId = variant === 'heldout' ? heldOutKitchen(rng.int(0, HELD_OUT_KITCHENS - 1)) : devKitchen(rng.int(0, DEV_KITCHENS - 1));
      const fixtures = spec.fixtures(rng);
      const target = typeof spec.target === 'function' ? spec.target(rng) : spec.target;
      let offsetY = rng.uniform(-OFFSET_Y_M, OFFSET_Y_M);
      if (spec.counterBesideM) offsetY += (rng.next() < 0.5 ? 1 : -1) * spec.counterBesideM;
      const built = buildKitchen(kitchenId, target, fixtures, offsetY, spec.beside, spec.besideSide, spec.enable);
      const kitchen = spec.dining ? withDiningCounter(built) : built;
      const inst = spec.instance(rng, kitchen, target);
      const rt = new KitchenRuntime(kitchen);
      const fixtureInfos: SceneObject[] = kitchen.fixtures.map((pf) => ({ xml: '', infos: pf.fixture.infos, qpos: [] }));
      return {
        objects: [...fixtureInfos, ...inst.objects],
        sceneXml: spec.mobileBase ? withMobileBase(buildKitchenScene(kitchen, inst.objects)) : buildKitchenScene(kitchen, inst.objects),
        words: inst.words,
        goal: inst.goal,
        attach: (world) => {
          rt.bind(world.sim);
          if (inst.tracker) attachTracker(world, inst.tracker(world, rt));
          const plan = spec.mobileBase ? floorPlan(world.sim, kitchen) : null;
          return {
            primitives: spec.mobileBase ? basePrimitives(world) : kitchenPrimitives(world, rt),
            state: {
              fields: [
                {
                  name: 'fixtures',
                  type: '{ name, kind, joints: { [part]: number }, status: { … }, interiors: { center: [x,y,z], sizeM: [x,y,z] }[] }[]',
                  doc:
                    "Every kitchen fixture: each part's opening 0 (closed / off) … 1 (fully open / on end of " +
                    'its range); its state in words (turned_on, water_on, spout, <burner>_burner_on, door_open, ' +
                    'timer); the boxes inside it where objects go (world frame, m).',
                },
                ...(plan ? [BASE_STATE_FIELD, FLOOR_PLAN_FIELD] : []),
              ],
              read: () => ({ fixtures: rt.report(), ...(plan ? { base: baseState(world.sim), floorPlan: plan } : {}) }),
            },
          };
        },
        judge: (j) => inst.judge(j, rt),
      };
    },
    solution: spec.solution,
  });
}
