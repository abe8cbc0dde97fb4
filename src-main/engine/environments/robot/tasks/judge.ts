/** Read-outs of sim state for success predicates, so each predicate reads as one short sentence. */
import type { ArmController } from '../robots/controller';
import type { Vec3 } from '../robots/math3';
import type { Sim } from '../../../sim/sim';

export class JudgeContext {
  constructor(
    readonly sim: Sim,
    private readonly arms: ReadonlyMap<string, ArmController>,
  ) {}

  pos(body: string): Vec3 {
    const id = this.sim.requireId('body', body);
    const x = this.sim.data.xpos as Float64Array;
    return [x[3 * id], x[3 * id + 1], x[3 * id + 2]];
  }

  /** A site's world position. */
  site(name: string): Vec3 {
    const id = this.sim.requireId('site', name);
    const x = this.sim.data.site_xpos as Float64Array;
    return [x[3 * id], x[3 * id + 1], x[3 * id + 2]];
  }

  /** Position of `body` in the frame of `frameBody` (its origin and axes). */
  local(body: string, frameBody: string): Vec3 {
    const p = this.pos(body);
    const o = this.pos(frameBody);
    const id = this.sim.requireId('body', frameBody);
    const m = (this.sim.data.xmat as Float64Array).subarray(9 * id, 9 * id + 9);
    const d = [p[0] - o[0], p[1] - o[1], p[2] - o[2]];
    return [m[0] * d[0] + m[3] * d[1] + m[6] * d[2], m[1] * d[0] + m[4] * d[1] + m[7] * d[2], m[2] * d[0] + m[5] * d[1] + m[8] * d[2]];
  }

  /** Horizontal distance between two bodies' origins (m). */
  xyDist(a: string, b: string): number {
    const p = this.pos(a);
    const q = this.pos(b);
    return Math.hypot(p[0] - q[0], p[1] - q[1]);
  }

  /** The cosine of a body's tilt: 1 when its z axis points straight up. */
  upright(body: string): number {
    const id = this.sim.requireId('body', body);
    return (this.sim.data.xmat as Float64Array)[9 * id + 8];
  }

  /** Linear speed of a free body (m/s); 0 for bodies without a free joint. */
  speed(body: string): number {
    const id = this.sim.requireId('body', body);
    const jnt = (this.sim.model.body_jntadr as Int32Array)[id];
    if (jnt < 0 || (this.sim.model.jnt_type as Int32Array)[jnt] !== 0) return 0;
    const dof = (this.sim.model.jnt_dofadr as Int32Array)[jnt];
    const v = this.sim.data.qvel as Float64Array;
    return Math.hypot(v[dof], v[dof + 1], v[dof + 2]);
  }

  atRest(body: string, tolMps = 0.02): boolean {
    return this.speed(body) < tolMps;
  }

  joint(name: string): number {
    const id = this.sim.requireId('joint', name);
    return (this.sim.data.qpos as Float64Array)[(this.sim.model.jnt_qposadr as Int32Array)[id]];
  }

  private arm(name: string): ArmController {
    const a = this.arms.get(name);
    if (!a) throw new Error(`judge: no arm "${name}"`);
    return a;
  }

  /** Whether no hand of any arm touches the body. */
  gripperClear(body: string): boolean {
    const id = this.sim.requireId('body', body);
    return [...this.arms.values()].every((a) => !a.touches(id));
  }

  /** Whether the arm holds the body between both finger pads. */
  holds(arm: string, body: string): boolean {
    const held = this.arm(arm).heldBody();
    const id = this.sim.requireId('body', body);
    return held === id || (held >= 0 && (this.sim.model.body_weldid as Int32Array)[held] === id);
  }

  touches(arm: string, body: string): boolean {
    return this.arm(arm).touches(this.sim.requireId('body', body));
  }
}

/** True when v lies in [lo, hi] on every axis. */
export const within = (v: Vec3, lo: Vec3, hi: Vec3): boolean => v.every((x, i) => x >= lo[i] && x <= hi[i]);
