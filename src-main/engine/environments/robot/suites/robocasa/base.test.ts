/**
 * The mobile base (base.ts) on NavigateKitchen's kitchens: `move_base` drives to a world pose and
 * `state().base` reports it; the arm's world-frame motions are re-based on the moved base (a TCP
 * target lands where it is asked to, and the reach check measures from where the base stands); a
 * drive into the counter stops at contact with an error naming it; a snapshot restores a drive
 * half-way; and no other kitchen task's scene has the base joints.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PrimitiveError } from '../../../../primitives/types';
import { createTaskWorld, type TaskWorld } from '../../tasks/world';
import { STAND_HALF_M } from './base';
import { COUNTER_FRONT_X } from './kitchen';

let ep: TaskWorld | null = null;
afterEach(() => {
  ep?.dispose();
  ep = null;
});

interface BaseResult {
  reached: boolean;
  position: [number, number];
  yaw: number;
}
const baseOf = async (w: TaskWorld) => ((await w.registry.invoke('state', {})) as { base: BaseResult }).base;

describe('robocasa mobile base (NavigateKitchen)', () => {
  it('move_base drives along the counter while turning, and state reports the pose it reached', async () => {
    ep = await createTaskWorld({ taskId: 'robocasa/NavigateKitchen', variant: 'default', seed: 2 });
    const r = (await ep.registry.invoke('move_base', { xy: [-0.05, 0.7], yaw: 0.4 })) as BaseResult;
    expect(r.reached).toBe(true);
    expect(r.position[0]).toBeCloseTo(-0.05, 2);
    expect(r.position[1]).toBeCloseTo(0.7, 2);
    expect(r.yaw).toBeCloseTo(0.4, 2);
    const b = await baseOf(ep);
    expect(b.position[1]).toBeCloseTo(0.7, 2);
    // The shorter way round: from 0.4 to -2.9 rad turns on through π (to 3.38 rad unwrapped), not back through 0.
    const back = (await ep.registry.invoke('move_base', { xy: [-0.05, 0.7], yaw: -2.9 })) as BaseResult;
    expect(back.reached).toBe(true);
    expect(Math.abs(back.yaw + 2.9)).toBeLessThan(0.006);
    const yawQ = (ep.sim.data.qpos as Float64Array)[(ep.sim.model.jnt_qposadr as Int32Array)[ep.sim.requireId('joint', 'base_yaw')]];
    expect(yawQ).toBeCloseTo(2 * Math.PI - 2.9, 2);
  }, 60_000);

  it("re-bases the arm's world-frame motions on the moved base: the TCP lands on the world target, reach is measured from the base", async () => {
    ep = await createTaskWorld({ taskId: 'robocasa/NavigateKitchen', variant: 'default', seed: 3 });
    await ep.registry.invoke('move_base', { xy: [-0.1, 1.0], yaw: 0.3 });
    // 1.14 m from the world origin (past the 1.05 m reach of an arm standing there), 0.50 m from the moved base.
    const target: [number, number, number] = [0.2, 1.05, 0.4];
    const m = (await ep.registry.invoke('move_to', { xyz: target, tolM: 0.01 })) as { reached: boolean; position: number[] };
    expect(m.reached).toBe(true);
    for (let i = 0; i < 3; i++) expect(m.position[i]).toBeCloseTo(target[i], 2);
    // And a point 1.2 m from the moved base is refused, though it is 0.2 m from the origin.
    await expect(ep.registry.invoke('move_to', { xyz: [0.1, -0.15, 0.3] })).rejects.toThrow(/beyond its reach/);
  }, 60_000);

  it('stops at the counter on contact, with an error naming it, and drives away again', async () => {
    ep = await createTaskWorld({ taskId: 'robocasa/NavigateKitchen', variant: 'default', seed: 4 });
    const err = await ep.registry.invoke('move_base', { xy: [0.6, 0], yaw: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PrimitiveError);
    expect((err as Error).message).toMatch(/robot's robot_stand .* met .*; the base stopped at .* and holds there/);
    const b = await baseOf(ep);
    // The stand's front face is at the counter's front edge, give or take the contact's softness.
    expect(b.position[0] + STAND_HALF_M).toBeGreaterThan(COUNTER_FRONT_X - 0.03);
    expect(b.position[0] + STAND_HALF_M).toBeLessThan(COUNTER_FRONT_X + 0.02);
    const r = (await ep.registry.invoke('move_base', { xy: [-0.2, 0], yaw: 0 })) as BaseResult;
    expect(r.reached).toBe(true);
  }, 60_000);

  it('a snapshot taken during a drive restores the drive exactly', async () => {
    ep = await createTaskWorld({ taskId: 'robocasa/NavigateKitchen', variant: 'default', seed: 5 });
    const w = ep;
    await w.registry.invoke('move_base', { xy: [-0.05, -0.4], yaw: 0.2 });
    const snap = w.sim.snapshot();
    const a = (await w.registry.invoke('move_base', { xy: [-0.1, 0.5], yaw: -0.3 })) as BaseResult;
    w.sim.restore(snap);
    const b = (await w.registry.invoke('move_base', { xy: [-0.1, 0.5], yaw: -0.3 })) as BaseResult;
    expect(b).toEqual(a);
  }, 60_000);

  it('leaves every other kitchen task without base joints or move_base', async () => {
    ep = await createTaskWorld({ taskId: 'robocasa/TurnOnMicrowave', variant: 'default', seed: 0 });
    expect(ep.xml).not.toMatch(/base_x|base_act/);
    expect(ep.registry.list().map((p) => p.name)).not.toContain('move_base');
    expect(Object.keys((await ep.registry.invoke('state', {})) as object)).not.toContain('base');
  });
});
