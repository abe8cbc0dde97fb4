/**
 * RoboCasa's dining counter (`FixtureType.DINING_COUNTER`: a counter named "island…"/"dining…" or
 * with a base opening, the stools under its overhang) as a peninsula off the main counter beside the
 * robot. It joins a kitchen only when a task asks for it (`dining` in the task spec), so every other
 * kitchen is exactly as before.
 *
 * RoboCasa's robot drives to the dining counter; ours stands per task in front of the target fixture
 * (README, "The robot"), so the peninsula runs from the main counter's front edge past the robot's
 * side, its top at the counter's height (RoboCasa's are the same 0.92 m), the edge towards the
 * robot within the hand's reach and the stools on its far side, under a 28 cm overhang. It is built
 * with its length along world x (yaw 0), so its top region in `state` reads in world axes.
 */
import type { Vec3 } from '../../robots/math3';
import type { Rng } from '../../../../prng';
import { scatter } from '../../tasks/layout';
import { type Fixture, info, n, placeFixture, v3, withPose } from './fixtures';
import { COUNTER_FRONT_X, type Kitchen, type KitchenSpec, type PlacedFixture } from './kitchen';

export const DINING = 'dining_counter';
/** Length along the room (x), depth across it (y), the overhang on the stool side (m). */
const LEN_M = 1.25;
const DEPTH_M = 0.6;
const OVERHANG_M = 0.28;
const THICK_M = 0.04;
/** The robot-side edge's distance from the robot's centre line (|y|, m). */
export const DINING_NEAR_Y_M = 0.34;
/** The stools' places along the counter (world x, m): the first two within the hand's reach. */
export const STOOL_X_M: readonly number[] = [0.12, -0.22, -0.56];
/** How far across the top from the robot-side edge the hand reaches down to it (m). */
export const DINING_REACH_M = 0.2;
/** The counter's top, as `_get_obj_cfgs` samples it: world x range the hand reaches along it. */
const REACH_X_M: [number, number] = [-0.26, 0.24];

/** Which side of the robot the peninsula is on (+1: its left, +y): away from an L's second run, else by the kitchen id. */
export function diningSide(spec: KitchenSpec): 1 | -1 {
  if (spec.layout === 'L') return -1;
  return spec.id % 2 === 0 ? 1 : -1;
}

function diningCounter(spec: KitchenSpec, s: 1 | -1): Fixture {
  const p = DINING;
  const st = spec.style;
  // The base cabinet stands back from the stool side by the overhang.
  const baseLo = -DEPTH_M / 2 + 0.03;
  const baseHi = DEPTH_M / 2 - OVERHANG_M;
  const baseY = (s * (baseLo + baseHi)) / 2;
  const stoolY = s * (DEPTH_M / 2 - 0.12);
  const cx = COUNTER_FRONT_X - LEN_M / 2;
  const stools = STOOL_X_M.map((x, i) => {
    const name = `stool_${i + 1}`;
    const vis = 'contype="0" conaffinity="0"';
    return `<body name="${name}" pos="${v3([x - cx, stoolY, 0])}">
          <geom type="cylinder" size="0.15 0.025" pos="0 0 -0.275" rgba="${st.accent}" ${vis}/>
          <geom type="cylinder" size="0.025 0.3" pos="0 0 -0.6" rgba="${st.metal}" ${vis}/>
          <geom type="cylinder" size="0.17 0.01" pos="0 0 -0.89" rgba="${st.metal}" ${vis}/>
        </body>`;
  }).join('');
  const inner = `<geom name="${p}_top" class="object" type="box" size="${n(LEN_M / 2)} ${n(DEPTH_M / 2)} ${n(THICK_M / 2)}" pos="0 0 ${n(-THICK_M / 2)}" material="kitchen_counter"/>
      <geom type="box" size="${n(LEN_M / 2 - 0.03)} ${n((baseHi - baseLo) / 2)} 0.42" pos="0 ${n(baseY)} -0.46" material="kitchen_cabinet" contype="0" conaffinity="0"/>
      ${stools}`;
  return withPose(p, 'counter', 'dining counter', LEN_M, DEPTH_M, THICK_M, {
    inner,
    joints: [],
    qpos: [],
    interiors: [{ body: p, lo: [-LEN_M / 2, -DEPTH_M / 2, 0], hi: [LEN_M / 2, DEPTH_M / 2, 0.3] }],
    sites: Object.fromEntries(STOOL_X_M.map((x, i) => [`stool_${i + 1}`, [x - cx, stoolY, 0] as Vec3])),
    infos: [
      info(p, 'counter', 'dining counter: a peninsula off the counter beside the robot, with stools on its far side', [LEN_M, DEPTH_M, THICK_M]),
      ...STOOL_X_M.map((_, i) => info(`stool_${i + 1}`, 'stool', 'stool at the dining counter', [0.3, 0.3, 0.65])),
    ],
    contact: '',
  });
}

/** The kitchen with RoboCasa's dining counter added beside the robot (nothing else changes). */
export function withDiningCounter(k: Kitchen): Kitchen {
  const s = diningSide(k.spec);
  const f = diningCounter(k.spec, s);
  const pf: PlacedFixture = { fixture: f, pos: [COUNTER_FRONT_X - LEN_M / 2, s * (DINING_NEAR_Y_M + DEPTH_M / 2), 0], yaw: 0 };
  const fixture = (name: string): PlacedFixture => (name === DINING ? pf : k.fixture(name));
  return {
    ...k,
    fixtures: [...k.fixtures, pf],
    xml: `${k.xml}\n    ${placeFixture(f, pf.pos[0], pf.pos[1], pf.pos[2], 0)}`,
    fixture,
    toWorld: (name, p) => (name === DINING ? [pf.pos[0] + p[0], pf.pos[1] + p[1], pf.pos[2] + p[2]] : k.toWorld(name, p)),
  };
}

/** The side of the robot the dining counter is on (+1: +y). */
export function diningSideOf(k: Kitchen): 1 | -1 {
  return k.fixture(DINING).pos[1] > 0 ? 1 : -1;
}

/**
 * Spots on the dining counter within the hand's reach (world xy), clear of each other by 3 cm: by
 * a stool (RoboCasa's `sample_region_kwargs=dict(ref=stool)`, `pos=("ref", …)`: its place along the
 * counter, ± `alongM`), across the top from the robot-side edge.
 */
export function diningSpots(rng: Rng, k: Kitchen, radii: number[], stool?: number, alongM = 0.15): [number, number][] {
  const s = diningSideOf(k);
  const x: [number, number] =
    stool === undefined ? REACH_X_M : [Math.max(REACH_X_M[0], STOOL_X_M[stool] - alongM), Math.min(REACH_X_M[1], STOOL_X_M[stool] + alongM)];
  const near = DINING_NEAR_Y_M + 0.01;
  const y: [number, number] = s > 0 ? [near, near + DINING_REACH_M] : [-near - DINING_REACH_M, -near];
  return scatter(rng, radii, { x, y }, 0.03);
}
