/**
 * RoboCasa's atomic-seen tasks on the fixtures a kitchen gets on request (countertop.ts): the
 * fridge, the electric kettle, the stand mixer, the blender and the toaster, each as its RoboCasa
 * class sets it up and judges it. The first phrasing is RoboCasa's instruction; RoboCasa has no
 * variations for atomic tasks, so the other three are ours.
 */
import type { Vec3 } from '../../robots/math3';
import type { Rng } from '../../../../prng';
import { scatter } from '../../tasks/layout';
import { call, locate, moveTo, placeAt, type Steps } from '../../tasks/solutions/steps';
import { counterSpots, retreat } from './atomic';
import { BLENDER_JAR_TOP_M, MIXER_HEAD_OPEN_TH, TOASTER_SLOTS } from './countertop';
import { kitchenTask } from './define';
import { gripperFar, inReceptacle, verdict } from './judging';
import type { Kitchen } from './kitchen';
import { blenderLid, breadSlice, distractor, food, FOODS, type KitchenObject, plate } from './objects';
import { BLENDER_LID, BLENDER_LID_POS_M, BLENDER_LID_UPRIGHT_DEG } from './runtime';

const at = (k: Kitchen, fixture: string, p: Vec3): Vec3 => k.toWorld(fixture, p);
const pct = (v: number, digits = 1): string => `${(v * 100).toFixed(digits)} %`;

/**
 * Counter distractors beside the fridge on its door's free-edge side: our fridge stands on the
 * counter, so the open door lies over the counter in front of it (RoboCasa's stands on the floor
 * and its door swings clear of the counters), and the counter in front is where it closes.
 */
function besideFridgeSpots(rng: Rng, k: Kitchen, radii: number[]): [number, number][] {
  const pf = k.fixture('fridge');
  const hingeY = pf.fixture.joints[0].anchor[1];
  const free = hingeY > 0 ? -1 : 1;
  const y0 = pf.pos[1] + free * (pf.fixture.widthM / 2);
  const y: [number, number] = free > 0 ? [y0 + 0.05, y0 + 0.3] : [y0 - 0.3, y0 - 0.05];
  return scatter(rng, radii, { x: [0.36, 0.62], y }, 0.03);
}

function besideFridge(rng: Rng, k: Kitchen, count: number, avoid: string): KitchenObject[] {
  const kinds = Object.keys(FOODS).filter((f) => f !== avoid);
  return besideFridgeSpots(rng, k, Array(count).fill(0.04)).map(([x, yy], i) => {
    const o = distractor(rng, `distr_counter_${i + 1}`, [x, yy, 0]);
    return o.infos[0].kind === avoid ? food(`distr_counter_${i + 1}`, rng.pick(kinds) as keyof typeof FOODS, [x, yy, 0], 0) : o;
  });
}

const closeFridge = kitchenTask({
  name: 'CloseFridge',
  group: 'atomic-seen',
  target: 'fridge',
  phrasings: () => ['Close the fridge door.', 'Shut the door of the fridge.', 'Push the fridge door closed.', 'Close the open fridge.'],
  defaultWords: {},
  // RoboCasa's ManipulateDoor(close): `open_door` sets every door to 0.90..1.0 of its range.
  fixtures: (rng) => ({ open: { fridge: rng.uniform(0.9, 1) } }),
  instance(rng, k) {
    const f = rng.pick(Object.keys(FOODS)) as keyof typeof FOODS;
    const objects = [food('door_obj', f, at(k, 'fridge', [0.02, 0, 0.016]), rng.uniform(-1, 1)), ...besideFridge(rng, k, rng.int(1, 3), f)];
    return {
      words: {},
      goal: { fixture: 'fridge' },
      objects,
      judge: (_j, rt) => verdict([{ ok: rt.isClosed('fridge'), says: `the fridge door is ${pct(rt.norm('fridge', 'door'), 2)} open (needs at most 0.5 %)` }]),
    };
  },
  async *solution() {
    yield call('close', { target: 'fridge' });
    yield* retreat();
  },
});

const turnOnElectricKettle = kitchenTask({
  name: 'TurnOnElectricKettle',
  group: 'atomic-seen',
  target: 'electric_kettle',
  phrasings: () => [
    'Press down the lever to turn on the electric kettle.',
    'Switch the electric kettle on by pushing its lever down.',
    'Turn the electric kettle on with the lever on its base.',
    'Push the power lever of the electric kettle down.',
  ],
  defaultWords: {},
  fixtures: () => ({}),
  instance: () => ({
    words: {},
    goal: { button: 'electric_kettle_switch' },
    objects: [],
    judge: (_j, rt) =>
      verdict([
        {
          ok: rt.kettleOn,
          says: `the electric kettle is ${rt.kettleOn ? 'on' : 'off'} (its switch reached ${pct(rt.norm('electric_kettle', 'switch'))}; on at 95 %)`,
        },
      ]),
  }),
  async *solution(goal) {
    yield call('press', { target: goal.button });
    yield* retreat();
  },
});

const openStandMixerHead = kitchenTask({
  name: 'OpenStandMixerHead',
  group: 'atomic-seen',
  target: 'stand_mixer',
  phrasings: () => [
    'Open the stand mixer head.',
    'Tilt the head of the stand mixer up.',
    'Lift the stand mixer head open.',
    'Raise the tilting head of the stand mixer.',
  ],
  defaultWords: {},
  fixtures: () => ({ open: { stand_mixer: 0 } }),
  instance: () => ({
    words: {},
    goal: { fixture: 'stand_mixer' },
    objects: [],
    judge: (_j, rt) => {
      const h = rt.norm('stand_mixer', 'head');
      return verdict([{ ok: h > MIXER_HEAD_OPEN_TH, says: `the stand mixer head is ${pct(h)} open (needs more than 99 %)` }]);
    },
  }),
  async *solution() {
    yield call('open', { target: 'stand_mixer' });
    yield* retreat();
  },
});

/** The lid's knob centre above its origin, and how far above the knob's centre the TCP holds it. */
const LID_KNOB_Z = 0.036;

const closeBlenderLid = kitchenTask({
  name: 'CloseBlenderLid',
  group: 'atomic-seen',
  target: 'blender',
  phrasings: () => [
    'Close the lid blender by securely placing the lid on top.',
    'Put the lid on the blender.',
    'Place the blender lid on top of the jar to close it.',
    'Cover the blender by setting its lid on top.',
  ],
  defaultWords: {},
  fixtures: () => ({}),
  // RoboCasa places the lid in the blender's parent region (on the counter beside it).
  instance(rng, k) {
    const [[x, y]] = counterSpots(rng, k, 'blender', [0.075]);
    return {
      words: {},
      goal: { object: BLENDER_LID },
      objects: [blenderLid(BLENDER_LID, [x, y, 0])],
      judge: (j, rt) => {
        const l = rt.lidOnBlender();
        const placed = {
          ok: l.on,
          says:
            `the lid is ${(l.distM * 100).toFixed(1)} cm from its closed place (needs under ${BLENDER_LID_POS_M * 100} cm) ` +
            `and tilted ${l.tiltDeg.toFixed(1)}° (needs under ${BLENDER_LID_UPRIGHT_DEG}°)`,
        };
        return verdict([placed, gripperFar(j, BLENDER_LID, 0.15)]);
      },
    };
  },
  async *solution(goal) {
    const lid = yield* locate(goal.object);
    const [x, y, z] = lid.position;
    yield* moveTo([x, y, z + 0.16], { yaw: 0, gripper: 'OPEN' });
    yield* moveTo([x, y, z + LID_KNOB_Z], { tolM: 0.008 });
    const g = (yield call('grasp', {})) as { success: boolean };
    if (!g.success) throw new Error('solution: could not grasp the blender lid');
    const carry = BLENDER_JAR_TOP_M + 0.16;
    yield* moveTo([x, y, carry], {});
    const b = yield* locate('blender');
    const [bx, by] = b.position;
    yield* moveTo([bx, by, carry], {});
    yield* moveTo([bx, by, BLENDER_JAR_TOP_M + 0.006 + LID_KNOB_Z + 0.012], { tolM: 0.008 });
    yield call('release', {});
    yield* moveTo([bx, by, carry], {});
    yield* retreat();
  },
});

/** Picks the slice standing in the toaster by its top edge, the fingers across its thickness. */
export async function* pickToast(query: string): Steps<{ name: string; offsetZ: number; halfHeight: number }> {
  const o = yield* locate(query);
  const [x, y, z] = o.position;
  const top = z + o.sizeM[2] / 2;
  yield* moveTo([x, y, top + 0.12], { yaw: o.yaw + Math.PI / 2, gripper: 'OPEN' });
  yield* moveTo([x, y, top - 0.025], { tolM: 0.008 });
  const g = (yield call('grasp', {})) as { success: boolean };
  if (!g.success) throw new Error(`solution: could not grasp ${query}`);
  const up = yield* moveTo([x, y, top + 0.12], {});
  const held = yield* locate(o.name);
  return { name: o.name, offsetZ: held.position[2] - up.position[2], halfHeight: o.sizeM[2] / 2 };
}

const pickPlaceToasterToCounter = kitchenTask({
  name: 'PickPlaceToasterToCounter',
  group: 'atomic-seen',
  target: 'toaster',
  phrasings: () => [
    'Place the toasted item on a plate.',
    'Take the toast out of the toaster and put it on the plate.',
    'Move the toasted bread from the toaster onto a plate.',
    'Put the toast from the toaster on the plate on the counter.',
  ],
  defaultWords: {},
  fixtures: () => ({}),
  instance(rng, k) {
    const slot = TOASTER_SLOTS[rng.int(0, TOASTER_SLOTS.length - 1)];
    const obj = breadSlice('obj', at(k, 'toaster', [slot[0], slot[1], slot[2] + 0.001]), k.fixture('toaster').yaw);
    const [[x, y]] = counterSpots(rng, k, 'toaster', [0.1]);
    const dish = plate('plate', [x, y, 0], 0.1);
    return {
      words: {},
      goal: { object: 'obj', plate: 'plate' },
      objects: [obj, dish],
      judge: (j) => verdict([inReceptacle(j, 'obj', dish), gripperFar(j, 'obj')]),
    };
  },
  async *solution(goal) {
    const held = yield* pickToast(goal.object);
    const p = yield* locate(goal.plate);
    // Set it down standing on the plate's centre; it tips over onto the plate.
    yield* placeAt(held, [p.position[0], p.position[1], p.position[2] + 0.008 + held.halfHeight], undefined, 0.3);
    yield* retreat();
  },
});

export const applianceTasks = [closeFridge, turnOnElectricKettle, openStandMixerHead, closeBlenderLid, pickPlaceToasterToCounter];
