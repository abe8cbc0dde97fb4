/**
 * RoboTwin's check_success vocabulary over our sim: functional points (sites), contacts between
 * actors, contact points of the grippers, and the grippers' open/closed tests. A judge written
 * with these reads like RoboTwin's, with its thresholds.
 */
import type { Verdict } from '../../../contract/environment';
import type { JudgeContext } from '../../tasks/judge';
import type { Vec3 } from '../../robots/math3';
import { ALOHA_MAX_OPENING_M } from '../../robots/aloha';
import { qmul, type Quat } from '../../../../../../src-shared/quat';

export type Side = 'left' | 'right';
export const other = (a: Side): Side => (a === 'left' ? 'right' : 'left');

/** A site's world position (an object's functional or contact point). */
export function site(j: JudgeContext, name: string): Vec3 {
  return j.site(name);
}

function bodyTree(j: JudgeContext, root: number): Set<number> {
  const parent = j.sim.model.body_parentid as Int32Array;
  const out = new Set<number>([root]);
  for (let b = root + 1; b < j.sim.model.nbody; b++) if (out.has(parent[b])) out.add(b);
  return out;
}

/** Whether any geom of actor `a` (with its child bodies) touches one of actor `b`. */
export function inContact(j: JudgeContext, a: string, b: string): boolean {
  const ga = bodyTree(j, j.sim.requireId('body', a));
  const gb = bodyTree(j, j.sim.requireId('body', b));
  const geomBody = j.sim.model.geom_bodyid as Int32Array;
  return j.sim.contacts().some((c) => {
    const b1 = geomBody[c.geom1];
    const b2 = geomBody[c.geom2];
    return (ga.has(b1) && gb.has(b2)) || (ga.has(b2) && gb.has(b1));
  });
}

const HAND = ['gripper_link', 'finger_left', 'finger_right', 'wrist_link'];

/** Positions of the contacts between an actor and the gripper of `arm` (either gripper if omitted). */
export function gripperContacts(j: JudgeContext, actor: string, arm?: Side): Vec3[] {
  const arms: Side[] = arm ? [arm] : ['left', 'right'];
  const hand = new Set(arms.flatMap((s) => HAND.map((h) => j.sim.requireId('body', `${s}_${h}`))));
  const obj = bodyTree(j, j.sim.requireId('body', actor));
  const geomBody = j.sim.model.geom_bodyid as Int32Array;
  return j.sim
    .contacts()
    .filter((c) => {
      const b1 = geomBody[c.geom1];
      const b2 = geomBody[c.geom2];
      return (obj.has(b1) && hand.has(b2)) || (obj.has(b2) && hand.has(b1));
    })
    .map((c) => c.pos);
}

/** The commanded gripper value as RoboTwin keeps it: 0 closed .. 1 fully open. */
export function gripperVal(j: JudgeContext, arm: Side): number {
  const id = j.sim.requireId('actuator', `${arm}_gripper`);
  return (j.sim.data.ctrl as Float64Array)[id] / ALOHA_MAX_OPENING_M;
}

/** RoboTwin: is_*_gripper_open is gripper_val > 0.8, is_*_gripper_close is < 0.2. */
export const gripperOpen = (j: JudgeContext, arm: Side): boolean => gripperVal(j, arm) > 0.8;
export const gripperClosed = (j: JudgeContext, arm: Side): boolean => gripperVal(j, arm) < 0.2;

/** Both grippers open, as most of RoboTwin's tasks require at the end. */
export function bothOpen(j: JudgeContext): Verdict | null {
  for (const a of ['left', 'right'] as const)
    if (!gripperOpen(j, a)) return { success: false, reason: `the ${a} gripper is not open (RoboTwin: gripper value > 0.8)` };
  return null;
}

/** A body's orientation quaternion (w, x, y, z). */
export function quat(j: JudgeContext, bodyName: string): [number, number, number, number] {
  const id = j.sim.requireId('body', bodyName);
  const q = j.sim.data.xquat as Float64Array;
  return [q[4 * id], q[4 * id + 1], q[4 * id + 2], q[4 * id + 3]];
}

/** The world direction of a body's local axis. */
export function axis(j: JudgeContext, bodyName: string, k: 0 | 1 | 2): Vec3 {
  const id = j.sim.requireId('body', bodyName);
  const m = (j.sim.data.xmat as Float64Array).subarray(9 * id, 9 * id + 9);
  return [m[k], m[3 + k], m[6 + k]];
}

export const fail = (reason: string): Verdict => ({ success: false, reason });
export const pass = (reason: string): Verdict => ({ success: true, reason });
export const cm = (m: number): string => `${(m * 100).toFixed(1)} cm`;

const qz = (yaw: number): Quat => [Math.cos(yaw / 2), 0, 0, Math.sin(yaw / 2)];

/**
 * A body's orientation as RoboTwin's actor quaternion (w, x, y, z), for the judges that compare
 * quaternion components. Our world turns into RoboTwin's by +π/2 about z; our body frame into the
 * model's by the fixed turn that makes our body at `neutralYaw` read RoboTwin's spawn quaternion
 * `base` (the `qpos` its load_actors gives the model before the random turn).
 */
export function rtQuat(j: JudgeContext, bodyName: string, neutralYaw: number, base: Quat): Quat {
  const q = qmul(qmul(qz(Math.PI / 2), quat(j, bodyName)), qmul(qz(-Math.PI / 2 - neutralYaw), base));
  return q[0] < 0 ? [-q[0], -q[1], -q[2], -q[3]] : q;
}

/** RoboTwin's `np.all(abs(q - target) < eps)` on quaternions (the actor's sign flipped to w ≥ 0). */
export const quatNear = (q: readonly number[], target: readonly number[], eps: number): boolean => q.every((v, i) => Math.abs(v - target[i]) < eps);
