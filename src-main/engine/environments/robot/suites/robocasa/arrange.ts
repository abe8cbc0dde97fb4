/**
 * Puts a kitchen task world into a chosen state without the robot, for the judge tests: a joint's
 * position, a free object's pose at rest, then one forward pass so positions and contacts are
 * current; and reads back where bodies, sites and objects are. The tests build a passing state
 * with it and then states that miss each of RoboCasa's thresholds by just over it. Only tests
 * import it.
 */
import { expect } from 'vitest';
import type { Vec3 } from '../../robots/math3';
import { JudgeContext } from '../../tasks/judge';
import type { TaskWorld } from '../../tasks/world';

const qposAdr = (w: TaskWorld, joint: string): number => (w.sim.model.jnt_qposadr as Int32Array)[w.sim.requireId('joint', joint)];

/** Sets a hinge or slide joint's position (rad or m). */
export function setJoint(w: TaskWorld, joint: string, q: number): void {
  (w.sim.data.qpos as Float64Array)[qposAdr(w, joint)] = q;
  w.sim.forward();
}

/** Puts an object (its free joint `<body>_free`) at a position, at rest: upright, or tilted about x by `tiltRad`. */
export function place(w: TaskWorld, body: string, p: Vec3, tiltRad = 0): void {
  const joint = `${body}_free`;
  (w.sim.data.qpos as Float64Array).set([p[0], p[1], p[2], Math.cos(tiltRad / 2), Math.sin(tiltRad / 2), 0, 0], qposAdr(w, joint));
  const dof = (w.sim.model.jnt_dofadr as Int32Array)[w.sim.requireId('joint', joint)];
  (w.sim.data.qvel as Float64Array).fill(0, dof, dof + 6);
  w.sim.forward();
}

/** A body's world position. */
export const pos = (w: TaskWorld, body: string): Vec3 => new JudgeContext(w.sim, w.world.arms).pos(body);

/** A site's world position. */
export const site = (w: TaskWorld, name: string): Vec3 => new JudgeContext(w.sim, w.world.arms).site(name);

/** A task object's bounding size (m), as the world lists it. */
export function sizeOf(w: TaskWorld, name: string): Vec3 {
  const o = w.world.objects.find((x) => x.name === name);
  if (!o) throw new Error(`no object "${name}" in this task world (${w.world.objects.map((x) => x.name).join(', ')})`);
  return o.sizeM as Vec3;
}

/** The world's verdict is `success`, and its reason matches `reason` when one is given. */
export function expectVerdict(w: TaskWorld, success: boolean, reason?: RegExp): void {
  const v = w.judge();
  expect(v.success, v.reason).toBe(success);
  if (reason) expect(v.reason).toMatch(reason);
}
