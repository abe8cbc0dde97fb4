/**
 * RoboCasa's StirVegetables (composite-seen): two vegetables from the counter beside the stove into
 * the pot on the burner that is on, then the spatula from the counter stirs them. Judged as its
 * class judges it: `update_state` counts the control steps in which the held spatula touches the
 * first vegetable while both move in the pot on that burner (`success_time`), success at 5.
 */
import type { Rng } from '../../../../prng';
import type { Vec3 } from '../../robots/math3';
import { heldObject } from '../../primitives/world';
import { JudgeContext } from '../../tasks/judge';
import { scatter } from '../../tasks/layout';
import { call, locate, moveTo, placeAt, settle, type Steps } from '../../tasks/solutions/steps';
import { BURNERS, type Burner } from './appliances';
import { kitchenTask } from './define';
import { n, v3 } from './fixtures';
import { inReceptacle, touching, verdict } from './judging';
import type { Kitchen } from './kitchen';
import { PRODUCE, produce, type KitchenObject } from './objects';
import { BURNER_ON_RAD, type KitchenRuntime } from './runtime';
import { pickFrom } from './steps';

/**
 * RoboCasa's thresholds: a vegetable is stirred when it moved more than 0.05 cm (xy) since the
 * last control step (`movement_threshold`, in cm); the pot counts on the knob's burner within
 * 0.15 m (`check_obj_location_on_stove(threshold=0.15)`); success at 5 such steps.
 */
export const STIR = { moveM: 0.0005, burnerM: 0.15, steps: 5 } as const;

/** RoboCasa's vegetable group, by the round members our produce has (they fit the pot two at a time). */
const VEGETABLES: (keyof typeof PRODUCE)[] = ['broccoli', 'potato', 'garlic'];

/**
 * The burners whose centres the hand reaches over the pot: the front two. RoboCasa draws any knob;
 * our stove's rear burners stand 0.77 m from the robot's base, past the arm's reach pointing down.
 */
const REACHABLE_BURNERS = BURNERS.filter((b) => b.startsWith('front'));

const POT_R = 0.12;
/** How far from the robot's base (xy) the hand reaches down to the counter, with a margin. */
const REACH_M = 0.66;
const POT_WALL_M = 0.07;

/** A pot (RoboCasa's pot group): a heavy disc with a ring of wall boxes and a loop handle each side; origin at the centre of its floor. */
export function pot(name: string, pos: Vec3): KitchenObject {
  const k = 20;
  const seg = (2 * Math.PI * POT_R) / k / 2 + 0.003;
  const rgba = '0.62 0.63 0.66 1';
  const o = 'class="object"';
  const walls = Array.from({ length: k }, (_, i) => {
    const a = (2 * Math.PI * i) / k;
    return `<geom ${o} type="box" size="0.004 ${n(seg)} ${n(POT_WALL_M / 2)}" pos="${v3([POT_R * Math.cos(a), POT_R * Math.sin(a), POT_WALL_M / 2])}" euler="0 0 ${n(a)}" rgba="${rgba}" mass="0.03"/>`;
  }).join('');
  // Its floor resists rolling (condim 6): a round vegetable set down in it stays where it was put, and
  // one pushed into another moves it along instead of rolling off it.
  const floor = `<geom ${o} type="cylinder" size="${n(POT_R + 0.004)} 0.003" pos="0 0 0.003" rgba="${rgba}" mass="1.2" condim="6" friction="1 0.01 0.03"/>`;
  const handles = [1, -1]
    .map(
      (s) => `<geom ${o} type="box" size="0.012 0.02 0.005" pos="0 ${n(s * (POT_R + 0.016))} ${n(POT_WALL_M - 0.012)}" rgba="0.15 0.15 0.15 1" mass="0.05"/>`,
    )
    .join('');
  const sizeM: Vec3 = [2 * POT_R + 0.008, 2 * POT_R + 0.008, POT_WALL_M];
  const q = [1, 0, 0, 0];
  return {
    name,
    group: 'pot',
    words: 'pot',
    restZ: 0,
    radiusM: POT_R + 0.004,
    sizeM,
    xml: `<body name="${name}" pos="${v3(pos)}"><freejoint name="${name}_free"/>${floor}${walls}${handles}</body>`,
    qpos: [...pos, ...q],
    infos: [{ name, kind: 'pot', colour: '', description: 'pot', sizeM, movable: true }],
  };
}

/** Our spatula at RoboCasa's `object_scale=[1, 1, 2]`: twice as tall as it lies. Origin at its centre. */
export const SPATULA_HALF: Vec3 = [0.11, 0.02, 0.024];

function spatula(name: string, pos: Vec3, yaw: number): KitchenObject {
  const q = [Math.cos(yaw / 2), 0, 0, Math.sin(yaw / 2)];
  const p: Vec3 = [pos[0], pos[1], pos[2] + SPATULA_HALF[2]];
  const sizeM: Vec3 = [2 * SPATULA_HALF[0], 2 * SPATULA_HALF[1], 2 * SPATULA_HALF[2]];
  return {
    name,
    group: 'spatula',
    words: 'spatula',
    restZ: SPATULA_HALF[2],
    radiusM: SPATULA_HALF[0],
    sizeM,
    xml: `<body name="${name}" pos="${v3(p)}" quat="${v3(q)}"><freejoint name="${name}_free"/><geom class="object" type="box" size="${v3(SPATULA_HALF)}" rgba="0.2 0.2 0.22 1" mass="0.06"/></body>`,
    qpos: [...p, ...q],
    infos: [{ name, kind: 'spatula', colour: '', description: 'spatula', sizeM, movable: true }],
  };
}

/** What `update_state` reads each control step. */
export interface StirSample {
  grasped: boolean;
  potOnKnob: boolean;
  /** Per vegetable (veg1, veg2): its position, whether it is in the pot, whether the spatula touches it. */
  veg: { pos: Vec3; inPot: boolean; touched: boolean }[];
}

export interface StirState {
  successTime: number;
  prev: (Vec3 | null)[];
}

/**
 * One of RoboCasa's `update_state` calls, as written there: `_detect_stirring` runs (and moves the
 * previous positions on) only while the spatula is grasped; the spatula's contact is carried from
 * the first vegetable to the second, so the first must be touched.
 */
export function stirStep(s: StirState, x: StirSample): void {
  if (!x.grasped) return;
  let all = true;
  let contact = false;
  x.veg.forEach((v, i) => {
    const prev = s.prev[i] ?? v.pos;
    const moved = Math.hypot(v.pos[0] - prev[0], v.pos[1] - prev[1]) > STIR.moveM;
    if (!contact) contact = v.touched;
    if (!(moved && v.inPot && contact)) all = false;
    s.prev[i] = [...v.pos];
  });
  if (x.potOnKnob && x.veg.every((v) => v.inPot) && all) s.successTime++;
}

/**
 * RoboCasa's `Stove.check_obj_location_on_stove(obj, threshold)` equal to the knob: the pot touches
 * the stove, within `threshold` (xy) of that knob's burner, whose knob is on.
 */
function potOnKnob(j: JudgeContext, rt: KitchenRuntime, k: Kitchen, burner: Burner): { ok: boolean; says: string } {
  const b = k.toWorld('stove', k.fixture('stove').fixture.sites[burner]);
  const p = j.pos('pot');
  const d = Math.hypot(p[0] - b[0], p[1] - b[1]);
  const onStove = touching(j, 'pot', 'stove');
  const lit = rt.burnerOn(burner);
  const words = burner.replace('_', ' ');
  return {
    ok: onStove && d < STIR.burnerM && lit,
    says: !onStove
      ? 'the pot does not touch the stove'
      : d >= STIR.burnerM
        ? `the pot is ${(d * 100).toFixed(1)} cm from the ${words} burner (needs under ${STIR.burnerM * 100} cm)`
        : `the pot is on the ${words} burner, ${lit ? 'which is on' : `whose knob is below ${BURNER_ON_RAD} rad`}`,
  };
}

function sideSpots(rng: Rng, k: Kitchen, radii: number[], side: 1 | -1): [number, number][] {
  const s = k.fixture('stove');
  const edge = s.pos[1] + side * (s.fixture.widthM / 2);
  const y: [number, number] = side > 0 ? [edge + 0.03, edge + 0.26] : [edge - 0.26, edge - 0.03];
  return scatter(rng, radii, { x: [0.37, 0.6], y }, 0.03);
}

const stirVegetables = kitchenTask({
  name: 'StirVegetables',
  group: 'composite-seen',
  target: 'stove',
  phrasings: ({ veg1, veg2 }: { veg1: string; veg2: string }) => [
    `Put the ${veg1} and ${veg2} in the pot. Retrieve the spatula and lightly stir the vegetables in the pot.`,
    `Place the ${veg1} and ${veg2} into the pot, then grab the spatula and gently stir them.`,
    `Put the ${veg1} and ${veg2} in the pot and use the spatula to stir them lightly.`,
    `Drop the ${veg1} and ${veg2} into the pot. Grab the spatula to gently stir the vegetables around.`,
  ],
  defaultWords: { veg1: 'broccoli', veg2: 'potato' },
  fixtures: (rng) => ({ knobs: { [rng.pick(REACHABLE_BURNERS)]: rng.uniform(0.6, 2.6) } }),
  instance(rng, k) {
    const stoveF = k.fixture('stove').fixture;
    const burner = REACHABLE_BURNERS.find((b) => Math.abs(stoveF.qpos[stoveF.joints.findIndex((jt) => jt.label === b)]) >= BURNER_ON_RAD) as Burner;
    const site = stoveF.sites[burner];
    const thePot = pot('pot', k.toWorld('stove', [site[0], site[1], site[2] + 0.003]));
    const [a, b] = rng.shuffle([...VEGETABLES]).slice(0, 2);
    const vegSide: 1 | -1 = rng.next() < 0.5 ? 1 : -1;
    // Within the hand's reach down to the counter (0.68 m from the base, with a margin).
    let [p1, p2] = sideSpots(rng, k, [PRODUCE[a].sizeM[0] / 2, PRODUCE[b].sizeM[0] / 2], vegSide);
    for (let i = 0; i < 100 && Math.max(Math.hypot(...p1), Math.hypot(...p2)) > REACH_M; i++)
      [p1, p2] = sideSpots(rng, k, [PRODUCE[a].sizeM[0] / 2, PRODUCE[b].sizeM[0] / 2], vegSide);
    // The spatula on the other side, near the stove and lying with its length away from the robot
    // (it is gripped 5 cm beyond its middle, which must be within reach).
    const spYaw = rng.uniform(-0.3, 0.3);
    const spSide = vegSide > 0 ? -1 : 1;
    const edge = k.fixture('stove').pos[1] + spSide * (k.fixture('stove').fixture.widthM / 2);
    const spY = edge + spSide * (0.05 + SPATULA_HALF[0] * Math.abs(Math.sin(spYaw)) + rng.uniform(0, 0.04));
    const spat = spatula('spatula', [0.42 + rng.uniform(-0.01, 0.01), spY, 0], spYaw);
    const veg1 = produce('veg1', a, [p1[0], p1[1], 0], rng.uniform(-1, 1));
    const veg2 = produce('veg2', b, [p2[0], p2[1], 0], rng.uniform(-1, 1));
    const st: StirState = { successTime: 0, prev: [null, null] };
    return {
      words: { veg1: veg1.words, veg2: veg2.words },
      goal: { object: 'veg1', object2: 'veg2', container: 'pot', tool: 'spatula' },
      objects: [thePot, spat, veg1, veg2],
      tracker: (world, rt) => {
        const j = new JudgeContext(world.sim, world.arms);
        const arm = [...world.arms.values()][0];
        return {
          step: () =>
            stirStep(st, {
              grasped: heldObject(world, arm) === 'spatula',
              potOnKnob: potOnKnob(j, rt, k, burner).ok,
              veg: ['veg1', 'veg2'].map((v) => ({ pos: j.pos(v), inPot: inReceptacle(j, v, thePot).ok, touched: touching(j, 'spatula', v) })),
            }),
          save: () => ({ successTime: st.successTime, prev: st.prev.map((p) => (p ? [...p] : null)) }),
          load: (v) => {
            const s = v as StirState;
            st.successTime = s.successTime;
            st.prev = s.prev.map((p) => (p ? ([...p] as Vec3) : null));
          },
        };
      },
      judge: (j, rt) => {
        const count = {
          ok: st.successTime >= STIR.steps,
          says: `the vegetables have been stirred in the pot for ${st.successTime} control steps (needs ${STIR.steps})`,
        };
        if (count.ok) return verdict([count]);
        // What the count needs, as it stands now, so that a short count can be told apart.
        const now = [potOnKnob(j, rt, k, burner), inReceptacle(j, 'veg1', thePot), inReceptacle(j, 'veg2', thePot)];
        return { success: false, reason: `${count.says}; now ${now.map((c) => c.says).join('; ')}` };
      },
    };
  },
  async *solution(goal) {
    const p = yield* locate(goal.container);
    const [px, py, pz] = p.position;
    // The two vegetables into the pot in a row away from the robot, the first nearer, touching:
    // the spatula, lowered behind the first, pushes it into the second and both move.
    const r1 = (yield* locate(goal.object)).sizeM[0] / 2;
    const r2 = (yield* locate(goal.object2)).sizeM[0] / 2;
    const x1 = px - POT_R + 0.07 + r1;
    for (const [v, x] of [
      [goal.object, x1],
      [goal.object2, x1 + r1 + r2 + 0.002],
    ] as const) {
      const held = yield* pickFrom(v, 0.2, false, undefined, 0);
      yield* placeAt(held, [x, py, pz + 0.006 + held.halfHeight + 0.006], undefined, 0.2);
    }
    yield* settle(0.5);
    yield* stirWithSpatula(goal.tool, goal.object, goal.object2, [px, py, pz]);
  },
});

/**
 * The spatula gripped across it 5 cm beyond its middle (nearer the middle, the push turns it less in
 * the pinch), lifted and tilted until it hangs straight down from the
 * hand (pitch π/2: the hand level, fingertips away from the robot), lowered into the pot behind the
 * first vegetable, its end 3.3 cm over the floor (above the vegetables' middles, so the push presses
 * them down onto the floor rather than lifting them off it), and pushed through the two in short strokes (each
 * move_to starts and stops, so short ones keep the push slow and steady).
 */
async function* stirWithSpatula(tool: string, first: string, second: string, potAt: Vec3): Steps {
  const s = yield* locate(tool);
  let yaw = s.yaw;
  while (yaw > Math.PI / 2) yaw -= Math.PI;
  while (yaw <= -Math.PI / 2) yaw += Math.PI;
  const grip = SPATULA_HALF[0] - 0.06;
  const [gx, gy] = [s.position[0] + grip * Math.cos(yaw), s.position[1] + grip * Math.sin(yaw)];
  yield* moveTo([gx, gy, 0.12], { yaw, gripper: 'OPEN' });
  yield* moveTo([gx, gy, 0.026], { tolM: 0.01 });
  const g = (yield call('grasp', {})) as { success: boolean };
  if (!g.success) throw new Error('solution: could not grasp the spatula');
  yield* moveTo([gx, gy, 0.36], { tolM: 0.02 });
  const [px, py, pz] = potAt;
  const up = yield* moveTo([px - 0.1, py, 0.36], { yaw: 0, pitch: Math.PI / 2, tolM: 0.02 });
  // Where it hangs from the hand now: its lower end below the TCP, its axis a little ahead of it.
  const hung = yield* locate(tool);
  const below = up.position[2] - (hung.position[2] - SPATULA_HALF[0]);
  const [ox, oy] = [hung.position[0] - up.position[0], hung.position[1] - up.position[1]];
  const z = pz + 0.006 + 0.033 + below;
  // Strokes through the two, each from behind the first along the line to the second, until the
  // count is reached (the episode ends there) or there is no room left in the pot.
  for (let pass = 0; pass < 3; pass++) {
    const a = yield* locate(first);
    const b = yield* locate(second);
    const d = Math.hypot(b.position[0] - a.position[0], b.position[1] - a.position[1]);
    const [ux, uy] = [(b.position[0] - a.position[0]) / d, (b.position[1] - a.position[1]) / d];
    // The spatula's axis this far behind the first vegetable's centre (its half thickness, 2.4 cm, and 6 mm clear).
    const back = a.sizeM[0] / 2 + SPATULA_HALF[2] + 0.006;
    const start: [number, number] = [a.position[0] - ux * back, a.position[1] - uy * back];
    // Room: the spatula clear of the wall behind, the second vegetable kept within 8 cm of the centre.
    const wall = POT_R - 0.004 - SPATULA_HALF[2] - 0.004;
    const ahead = (b.position[0] - px) * ux + (b.position[1] - py) * uy;
    const len = Math.min(0.05, 0.08 - ahead);
    if (Math.hypot(start[0] - px, start[1] - py) > wall || len < 0.01) break;
    const at = (t: number, zz = z): Vec3 => [start[0] + ux * t - ox, start[1] + uy * t - oy, zz];
    yield* moveTo(at(0, z + 0.06), { tolM: 0.015 });
    yield* moveTo(at(0), { tolM: 0.015 });
    const n = Math.round(len / 0.005);
    for (let i = 1; i <= n; i++) yield* moveTo(at((len * i) / n), { tolM: 0.01 });
    yield* moveTo(at(len, z + 0.06), { tolM: 0.015 });
  }
  yield* moveTo([px - 0.1, py, 0.36], { tolM: 0.02 });
}

export const stirTasks = [stirVegetables];
