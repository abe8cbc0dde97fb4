/**
 * Building blocks of the reference solutions. Each is an async generator that yields primitive
 * calls and reads every result before the next, so solutions compose with `yield*` and a planner
 * can replay them call by call.
 */
import type { NamedArgs } from '../../../../primitives/types';
import type { Call } from '../types';

export type Steps<T = void> = AsyncGenerator<Call, T, unknown>;

export interface FindResult {
  found: boolean;
  name: string | null;
  position: [number, number, number] | null;
  sizeM: [number, number, number] | null;
  yaw: number | null;
}
export interface MoveResult {
  reached: boolean;
  distanceM: number;
  steps: number;
  position: [number, number, number];
  yaw: number;
  pitch: number;
  /** The wrist's real yaw (before folding by a half turn). */
  wristYaw: number;
}
export interface GraspResult {
  success: boolean;
  holding: string | null;
  openingM: number;
}

/** Arm selection for the bimanual robot; undefined on the single arm. */
export type ArmName = string | undefined;

export const call = (primitive: string, args: NamedArgs = {}, arm?: ArmName): Call => ({ primitive, args: arm ? { ...args, arm } : args });

/** Clearance above objects for transport moves (m). */
export const TRAVEL_Z = 0.16;

export async function* locate(query: string): Steps<Required<{ [K in keyof FindResult]: NonNullable<FindResult[K]> }>> {
  const r = (yield call('find', { query })) as FindResult;
  if (!r.found || !r.position || !r.sizeM || r.yaw === null || !r.name) throw new Error(`solution: "${query}" not found`);
  return { found: true, name: r.name, position: r.position, sizeM: r.sizeM, yaw: r.yaw };
}

/** The gripper yaw that grips a box of yaw `objYaw` across its faces: objYaw mod π/2 in [-π/4, π/4]. */
export function boxGripYaw(objYaw: number): number {
  const q = Math.PI / 2;
  return objYaw - q * Math.round(objYaw / q);
}

export async function* moveTo(xyz: [number, number, number], opts: NamedArgs = {}, arm?: ArmName): Steps<MoveResult> {
  return (yield call('move_to', { xyz, ...opts }, arm)) as MoveResult;
}

export interface Picked {
  name: string;
  /** Object centre height minus TCP height while held (m). */
  offsetZ: number;
  halfHeight: number;
}

/**
 * Picks up a free object from above: approach over it, descend, grasp, lift. Retries once when the
 * grasp misses (re-finding the object, which may have moved).
 */
export async function* pickUp(query: string, arm?: ArmName, liftZ = TRAVEL_Z): Steps<Picked> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const o = yield* locate(query);
    const [x, y, z] = o.position;
    const yaw = boxGripYaw(o.yaw);
    const half = o.sizeM[2] / 2;
    const graspZ = Math.max(z, 0.026);
    yield* moveTo([x, y, Math.max(z + half + 0.08, liftZ)], { yaw, gripper: 'OPEN' }, arm);
    yield* moveTo([x, y, graspZ], { tolM: 0.01 }, arm);
    const g = (yield call('grasp', {}, arm)) as GraspResult;
    if (g.success) {
      const up = yield* moveTo([x, y, Math.max(liftZ, z + 0.1)], {}, arm);
      const held = yield* locate(o.name);
      return { name: o.name, offsetZ: held.position[2] - up.position[2], halfHeight: half };
    }
    yield call('release', {}, arm);
    yield* moveTo([x, y, z + half + 0.08], {}, arm);
  }
  throw new Error(`solution: could not grasp ${query}`);
}

/** Puts the held object down with its centre at `center` (small drop), then backs off upwards. */
export async function* placeAt(p: Picked, center: [number, number, number], arm?: ArmName, travelZ = TRAVEL_Z): Steps {
  const [x, y, z] = center;
  const tcpZ = z - p.offsetZ;
  yield* moveTo([x, y, Math.max(travelZ, tcpZ + 0.06)], {}, arm);
  yield* moveTo([x, y, tcpZ + 0.006], { tolM: 0.008 }, arm);
  yield call('release', {}, arm);
  yield* moveTo([x, y, Math.max(travelZ, tcpZ + 0.08)], {}, arm);
}

/** Lets objects settle (a dropped cube may still rock) before the episode is judged. */
export async function* settle(seconds = 0.6): Steps {
  yield call('wait', { seconds });
}
