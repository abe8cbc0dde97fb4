/**
 * Reference motions for LIBERO's articulated goals through the robot primitives, the hand pointing
 * down: turn the stove's knob (grasp its bar, rotate_wrist), pull a drawer by its handle, push a
 * drawer shut, and sweep a hinged door shut. Every pose comes from `find` and `state` (the regions'
 * boxes, the joints' position, axis, range and value); what they assume of LIBERO's models is said
 * where it is used (a cabinet's handle bar stands 3.7 cm in front of its drawer's box, a microwave's
 * door runs along the microwave's x when shut).
 */
import { call, locate, moveTo, type Steps } from '../../tasks/solutions/steps';

export interface JointState {
  name: string;
  kind: 'slide' | 'hinge';
  value: number;
  range: [number, number];
  position: [number, number, number];
  axis: [number, number, number];
}
export interface RegionState {
  name: string;
  position: [number, number, number];
  sizeM: [number, number, number];
}
interface SceneState {
  regions?: RegionState[];
  joints?: JointState[];
}

export async function* sceneState(): Steps<SceneState> {
  return (yield call('state')) as SceneState;
}

/** The joint that moves `target` (a region of a drawer, `<fixture>_<part>_region`, or a fixture with one joint). */
export function jointFor(joints: JointState[], target: string): JointState {
  const part = target.replace(/_region$/, '');
  const hit = joints.find((j) => j.name.startsWith(`${part}_`)) ?? joints.filter((j) => j.name.startsWith(`${target}_`))[0];
  if (!hit) throw new Error(`solution: no joint moves ${target}`);
  return hit;
}

/** The gripper yaw whose fingers close along the horizontal direction d (yaw 0 closes along world y). */
const yawAlong = (d: [number, number]): number => Math.atan2(-d[0], d[1]);

/** Turns a knob (a vertical hinge with a bar on top) on or off: grasp the bar, turn the wrist, let go. */
export async function* turnKnob(fixture: string, on: boolean): Steps {
  const st = yield* sceneState();
  const j = jointFor(st.joints ?? [], fixture);
  const o = yield* locate(fixture);
  const [x, y, z] = j.position;
  // the bar lies along the knob's x; the knob's frame turns with the stove's yaw and the knob's value
  const yaw = o.yaw + j.value * Math.sign(j.axis[2] || 1);
  yield* moveTo([x, y, z + 0.12], { yaw, gripper: 'OPEN' });
  yield* moveTo([x, y, z + 0.03], { tolM: 0.008 });
  yield call('set_gripper', { opening: 0 });
  const turn = on ? Math.max(0.5, 1.1 - j.value) : -(j.value + 0.25);
  // counter-clockwise about +z raises the value when the axis points up
  yield call('rotate_wrist', { deltaYaw: turn * Math.sign(j.axis[2] || 1) });
  yield call('release');
  yield* moveTo([x, y, z + 0.12], {});
}

/** The drawer's outward direction (the way its value goes to open it), horizontal unit vector. */
export function outward(j: JointState): [number, number] {
  const openSign = Math.abs(j.range[0]) > Math.abs(j.range[1]) ? Math.sign(j.range[0]) : Math.sign(j.range[1]);
  const n = Math.hypot(j.axis[0], j.axis[1]) || 1;
  return [(j.axis[0] / n) * openSign, (j.axis[1] / n) * openSign];
}

/** Where the handle bar of `region`'s drawer is now: 3.7 cm out from the front of the drawer's box (LIBERO's cabinets). */
export function handleOf(region: RegionState, d: [number, number]): [number, number, number] {
  const depth = Math.abs(d[0]) * region.sizeM[0] + Math.abs(d[1]) * region.sizeM[1];
  const out = depth / 2 + 0.037;
  return [region.position[0] + d[0] * out, region.position[1] + d[1] * out, region.position[2]];
}

/**
 * Whether another drawer of the same cabinet stands just above `region`'s, high enough for a level
 * hand: a hand pointing down meets the drawer above (its 20 cm length lies across the cabinet front
 * when the fingers close on the bar).
 */
function drawerAbove(st: SceneState, region: RegionState): boolean {
  const fixture = region.name.replace(/_[a-z]+_region$/, '');
  return (st.regions ?? []).some(
    (r) =>
      r !== region &&
      r.name.startsWith(`${fixture}_`) &&
      r.name.endsWith('_region') &&
      r.position[2] > region.position[2] + 0.03 &&
      r.position[2] < region.position[2] + 0.12,
  );
}

const LEVEL = Math.PI / 2;
/** The level hand is some 8 cm tall: below this (a bottom drawer) it stands on the table. */
const LEVEL_ABOVE_M = 0.08;
/**
 * Low down under another drawer the last of the push is made with the hand tilted this far (rad): the
 * closed fingertips lean into the cabinet against the bar's outer face, the hand's body out and up,
 * clear of the drawer above (tilted further, the wrist swings low behind the hand).
 */
const TILT = 0.5;

/** Opens a drawer: the fingers straddle its handle bar from above, close on it, and pull it out its full travel. */
export async function* openDrawer(regionName: string): Steps {
  const st = yield* sceneState();
  const region = st.regions?.find((r) => r.name === regionName);
  if (!region) throw new Error(`solution: no region ${regionName}`);
  const j = jointFor(st.joints ?? [], regionName);
  const d = outward(j);
  const [hx, hy, hz] = handleOf(region, d);
  if (drawerAbove(st, region) && region.position[2] >= LEVEL_ABOVE_M) {
    // the fingertips point into the cabinet: yaw towards −d, the fingers closing along the front
    const at = (s: number, z: number): [number, number, number] => [hx + d[0] * s, hy + d[1] * s, z];
    const yaw = Math.atan2(-d[1], -d[0]);
    const travel = Math.abs(j.range[0] - j.range[1]);
    yield* moveTo(at(0.15, hz + 0.12), { yaw, pitch: 0, gripper: 'CLOSE' });
    yield* moveTo(at(0.15, hz + 0.018), { yaw, pitch: LEVEL, tolM: 0.01 });
    yield* moveTo(at(-0.02, hz + 0.018), { tolM: 0.008 });
    yield* moveTo(at(-0.02, hz - 0.005), { tolM: 0.02 });
    yield* moveTo(at(travel + 0.01, hz - 0.005), { tolM: 0.02 });
    yield* moveTo(at(travel + 0.01, hz + 0.018), { tolM: 0.02 });
    // backing out 11 cm can be past the arm's reach (a cabinet far to the side): it backs out less
    let back = 0.12;
    for (const b of [0.12, 0.07, 0.04]) {
      try {
        yield* moveTo(at(travel + b, hz + 0.018), { tolM: 0.02 });
        back = b;
        break;
      } catch (e) {
        if (b === 0.04 || !/reach/.test(String(e))) throw e;
      }
    }
    try {
      yield* moveTo(at(travel + back, hz + 0.15), { pitch: 0, tolM: 0.03 });
    } catch (e) {
      // the hand turning down on the way up leaves the reach: it rises level, then turns down higher up
      if (!/reach/.test(String(e))) throw e;
      yield* moveTo(at(travel + back, hz + 0.15), { tolM: 0.03 });
      yield* moveTo(at(travel + back - 0.05, hz + 0.2), { pitch: 0, tolM: 0.03 });
    }
    return;
  }
  const yaw = yawAlong(d);
  // 2 mm outward of the bar's centre, 3 cm apart: the inner finger fits between the bar and the drawer's face
  const at = (s: number, z: number): [number, number, number] => [hx + d[0] * (0.002 + s), hy + d[1] * (0.002 + s), z];
  yield* moveTo(at(0, hz + 0.1), { yaw, gripper: 0.03 });
  yield* moveTo(at(0, hz + 0.004), { tolM: 0.008 });
  yield call('set_gripper', { opening: 0 });
  const travel = Math.abs(j.range[0] - j.range[1]);
  yield* moveTo(at(travel + 0.03, hz + 0.004), { tolM: 0.005 });
  yield call('release');
  yield* moveTo(at(travel + 0.07, hz + 0.004), { tolM: 0.03 });
  yield* moveTo(at(travel + 0.07, hz + 0.12), { tolM: 0.03 });
}

/** Pushes a drawer shut: the closed fingers against the outside of its handle, moving in past the closed end. */
export async function* closeDrawer(regionName: string): Steps {
  const st = yield* sceneState();
  const region = st.regions?.find((r) => r.name === regionName);
  if (!region) throw new Error(`solution: no region ${regionName}`);
  const j = jointFor(st.joints ?? [], regionName);
  const d = outward(j);
  const [hx, hy, hz] = handleOf(region, d);
  const opened = Math.abs(j.value);
  if (drawerAbove(st, region) && region.position[2] >= LEVEL_ABOVE_M) {
    // under another drawer: the hand level, the closed fingertips against the bar's outer face, pushing in
    const at = (s: number, z: number): [number, number, number] => [hx + d[0] * s, hy + d[1] * s, z];
    const yawIn = Math.atan2(-d[1], -d[0]);
    yield* moveTo(at(0.15, hz + 0.12), { yaw: yawIn, pitch: 0, gripper: 'CLOSE' });
    yield* moveTo(at(0.15, hz), { yaw: yawIn, pitch: LEVEL, tolM: 0.01 });
    yield* moveTo(at(-opened + 0.002, hz), { tolM: 0.02 });
    yield* moveTo(at(0.15, hz), { tolM: 0.02 });
    yield* moveTo(at(0.15, hz + 0.15), { pitch: 0, tolM: 0.03 });
    return;
  }
  const yaw = yawAlong([-d[1], d[0]]);
  // the bar's outer face is 8 mm out from its centre, a finger pad 8 mm thick
  const at = (s: number, z: number): [number, number, number] => [hx + d[0] * (0.02 + s), hy + d[1] * (0.02 + s), z];
  yield* moveTo(at(0.03, hz + 0.1), { yaw, gripper: 'CLOSE' });
  yield* moveTo(at(0.03, hz + 0.004), { tolM: 0.008 });
  yield* moveTo(at(-opened - 0.012, hz + 0.004), { tolM: 0.03 });
  yield* moveTo(at(0.03, hz + 0.004), { tolM: 0.02 });
  yield* moveTo(at(0.03, hz + 0.12), { tolM: 0.02 });
  if (!drawerAbove(st, region)) return;
  // low under another drawer the hand's body meets that drawer's face some 4 cm short: the rest tilted
  const now = yield* sceneState();
  const left = Math.abs(jointFor(now.joints ?? [], regionName).value);
  const moved = now.regions?.find((r) => r.name === regionName);
  if (left < 0.004 || !moved) return;
  const [tx, ty] = handleOf(moved, d);
  const tilt = (s: number, z: number): [number, number, number] => [tx + d[0] * s, ty + d[1] * s, z];
  const yawIn = Math.atan2(-d[1], -d[0]);
  yield* moveTo(tilt(0.05, hz + 0.1), { yaw: yawIn, pitch: TILT, tolM: 0.01 });
  yield* moveTo(tilt(0.05, hz), { tolM: 0.01 });
  yield* moveTo(tilt(-left + 0.002, hz), { tolM: 0.02 });
  yield* moveTo(tilt(0.05, hz), { tolM: 0.02 });
  yield* moveTo(tilt(0.05, hz + 0.12), { pitch: 0, tolM: 0.03 });
}

/**
 * Sweeps a door about its vertical hinge until it is shut: the closed fingers behind the door at 20 cm
 * from the hinge, moving round in the closing sense. The door runs along the fixture's x when shut.
 */
export async function* closeDoor(fixture: string): Steps {
  const st = yield* sceneState();
  const j = jointFor(st.joints ?? [], fixture);
  const o = yield* locate(fixture);
  const s = Math.sign(j.axis[2] || 1);
  const [px, py, pz] = j.position;
  // the door's direction from the hinge at joint value q, and the side it moves towards as q goes to 0
  const closing = Math.sign(0 - j.value) || 1;
  const angle = (q: number): number => o.yaw + s * q;
  const r = 0.2;
  const point = (q: number): [number, number, number] => {
    const a = angle(q);
    const e = [Math.cos(a), Math.sin(a)];
    const n = [-Math.sin(a) * s * closing, Math.cos(a) * s * closing];
    return [px + r * e[0] - 0.035 * n[0], py + r * e[1] - 0.035 * n[1], pz];
  };
  const start = j.value - closing * 0.35;
  const first = point(start);
  yield* moveTo([first[0], first[1], pz + 0.15], { yaw: angle(start) + Math.PI / 2, gripper: 'CLOSE' });
  yield* moveTo(first, { tolM: 0.01 });
  const steps = Math.ceil(Math.abs(0 - start) / 0.2);
  for (let i = 1; i <= steps; i++) {
    const q = start + ((0 - start) * i) / steps + closing * (i === steps ? 0.03 : 0);
    // the wrist's joint limits leave some of these yaws out of reach: the pads push alike at any yaw
    for (const yaw of [angle(q) + Math.PI / 2, angle(q), angle(q) + Math.PI / 4]) {
      try {
        yield* moveTo(point(q), { yaw, tolM: 0.02 });
        break;
      } catch {
        continue;
      }
    }
  }
  const end = point(0.1 * -closing);
  yield* moveTo([end[0], end[1], pz + 0.15], { tolM: 0.02 });
}
