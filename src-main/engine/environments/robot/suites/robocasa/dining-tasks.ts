/**
 * RoboCasa's tasks that use the dining counter (dining.ts), each as its class sets it up and judges
 * it. The first phrasing is RoboCasa's instruction; the other three are its variations
 * (`task_instruction_variants.csv`).
 */
import type { Sim } from '../../../../sim/sim';
import { call, locate, moveTo, placeAt } from '../../tasks/solutions/steps';
import { pickToast } from './appliance-tasks';
import { retreat } from './atomic';
import { TOASTER_SLOTS } from './countertop';
import { kitchenTask } from './define';
import { DINING, diningSpots } from './dining';
import { gripperFar, inReceptacle, verdict } from './judging';
import { breadSlice, plate } from './objects';
import { TOASTER_ON_SEC } from './runtime';

/** The object's geoms touch one of these geoms (RoboCasa's `check_contact` on named geoms). */
export function touchesGeoms(sim: Sim, body: string, geoms: readonly string[]): boolean {
  const ids = geoms.map((g) => sim.requireId('geom', g));
  const b = sim.requireId('body', body);
  const gb = sim.model.geom_bodyid as Int32Array;
  return sim.contacts().some((c) => (ids.includes(c.geom1) && gb[c.geom2] === b) || (ids.includes(c.geom2) && gb[c.geom1] === b));
}

/** The toaster's slot floors (RoboCasa's `check_slot_contact` looks for the object on one). */
export const TOASTER_SLOT_FLOORS = TOASTER_SLOTS.map((_, i) => `toaster_slot${i}_floor`);

const getToastedBread = kitchenTask({
  name: 'GetToastedBread',
  group: 'composite-seen',
  target: 'toaster',
  dining: true,
  phrasings: () => [
    'Start the toaster. Once the lever pops up, take the bread to the plate on the dining counter.',
    'Turn on the toaster. After the lever pops up, move the bread to the plate on the counter.',
    'Start toasting. When the lever comes up, put the bread on the plate on the dining surface.',
    'Turn the toaster on, and after the lever comes up, move the bread over to the plate on the dining counter.',
  ],
  defaultWords: {},
  fixtures: () => ({}),
  instance(rng, k) {
    const slot = TOASTER_SLOTS[rng.int(0, TOASTER_SLOTS.length - 1)];
    const obj = breadSlice('obj', k.toWorld('toaster', [slot[0], slot[1], slot[2] + 0.001]), k.fixture('toaster').yaw);
    // RoboCasa: the plate on the dining counter by a stool (`ref=stool`).
    const [[x, y]] = diningSpots(rng, k, [0.094], rng.int(0, 1));
    const dish = plate('plate', [x, y, 0], 0.09);
    // RoboCasa's `_check_success` latches `toaster_on` once the bread touches a slot floor while the toaster is on.
    let toasted = false;
    return {
      words: {},
      goal: { object: 'obj', plate: 'plate', lever: 'toaster_lever', counter: DINING },
      objects: [obj, dish],
      tracker: (world, rt) => ({
        step: () => {
          if (!toasted && rt.toasterOn && touchesGeoms(world.sim, 'obj', TOASTER_SLOT_FLOORS)) toasted = true;
        },
        save: () => toasted,
        load: (v) => {
          toasted = v === true;
        },
      }),
      judge: (j) =>
        verdict([
          { ok: toasted, says: toasted ? 'the bread was in a slot while the toaster was on' : 'the toaster has not been on with the bread in a slot' },
          inReceptacle(j, 'obj', dish),
          gripperFar(j, 'obj'),
        ]),
    };
  },
  async *solution(goal) {
    yield call('press', { target: goal.lever });
    yield* retreat();
    // The lever pops up when the toast is done.
    for (let waited = 0; waited < TOASTER_ON_SEC + 1; waited += 9) yield call('wait', { seconds: 9 });
    const held = yield* pickToast(goal.object);
    const p = yield* locate(goal.plate);
    // Over the plate with the fingers closing across the line from the robot's base: the wrist's
    // yaw from the toaster would turn the base past its limit out at the robot's side.
    yield* moveTo([p.position[0], p.position[1], 0.3], { yaw: Math.atan2(p.position[1], p.position[0]) });
    yield* placeAt(held, [p.position[0], p.position[1], p.position[2] + 0.008 + held.halfHeight], undefined, 0.3);
    yield* retreat();
  },
});

export const diningTasks = [getToastedBread];
