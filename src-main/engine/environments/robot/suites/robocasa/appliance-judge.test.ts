/**
 * The judges of the tasks on the on-request fixtures (appliance-tasks.ts): a passing state and
 * states just past each of RoboCasa's thresholds, on real sim state.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Vec3 } from '../../robots/math3';
import { createTaskWorld, type TaskWorld } from '../../tasks/world';
import { JudgeContext } from '../../tasks/judge';
import { gripperFar } from './judging';
import { expectVerdict, place, pos, setJoint, site } from './arrange';

const adrOf = (w: TaskWorld, joint: string): number => (w.sim.model.jnt_qposadr as Int32Array)[w.sim.requireId('joint', joint)];

let ep: TaskWorld | null = null;
afterEach(() => {
  ep?.dispose();
  ep = null;
});

async function world(task: string, seed = 0): Promise<TaskWorld> {
  ep = await createTaskWorld({ taskId: `robocasa/${task}`, variant: 'default', seed });
  return ep;
}

/** A joint's open end (its range's end away from 0). */
function openEnd(w: TaskWorld, joint: string): number {
  const r = w.sim.model.jnt_range as Float64Array;
  const id = w.sim.requireId('joint', joint);
  return Math.abs(r[2 * id]) > Math.abs(r[2 * id + 1]) ? r[2 * id] : r[2 * id + 1];
}

describe('robocasa judges on the on-request fixtures', () => {
  it('CloseFridge: closed at 0.5 % of the door range, not at 0.51 %', async () => {
    const w = await world('CloseFridge');
    expectVerdict(w, false, /fridge door is 9\d\.\d\d % open|fridge door is 100\.00 % open/);
    const open = openEnd(w, 'fridge_door_hinge');
    setJoint(w, 'fridge_door_hinge', open * 0.0049);
    expectVerdict(w, true);
    setJoint(w, 'fridge_door_hinge', open * 0.0051);
    expectVerdict(w, false, /0\.51 % open \(needs at most 0\.5 %\)/);
  });

  it('TurnOnElectricKettle: on once the switch has reached 95 % of its travel, not at 94 %', async () => {
    const w = await world('TurnOnElectricKettle');
    expectVerdict(w, false, /kettle is off/);
    const travel = openEnd(w, 'electric_kettle_switch_slide');
    setJoint(w, 'electric_kettle_switch_slide', travel * 0.94);
    w.sim.step(1);
    expectVerdict(w, false, /kettle is off/);
    setJoint(w, 'electric_kettle_switch_slide', travel * 0.951);
    w.sim.step(1);
    expectVerdict(w, true);
    // Latched: it stays on when the switch is let up again (RoboCasa's turned_on).
    setJoint(w, 'electric_kettle_switch_slide', 0);
    w.sim.step(1);
    expectVerdict(w, true);
  });

  it('OpenStandMixerHead: open above 99 % of the head range, not at 98.9 %', async () => {
    const w = await world('OpenStandMixerHead');
    expectVerdict(w, false);
    const open = openEnd(w, 'stand_mixer_head_hinge');
    setJoint(w, 'stand_mixer_head_hinge', open * 0.9905);
    expectVerdict(w, true);
    setJoint(w, 'stand_mixer_head_hinge', open * 0.989);
    expectVerdict(w, false, /98\.9 % open \(needs more than 99 %\)/);
  });

  it('CloseBlenderLid: within 4 cm of the closed place and under 7° of tilt, gripper over 15 cm away', async () => {
    const w = await world('CloseBlenderLid');
    expectVerdict(w, false);
    const b = pos(w, 'blender');
    const closed: Vec3 = [b[0], b[1], 0.276];
    place(w, 'blender_lid', closed);
    expectVerdict(w, true);
    place(w, 'blender_lid', [closed[0] + 0.0395, closed[1], closed[2]]);
    expectVerdict(w, true);
    place(w, 'blender_lid', [closed[0] + 0.0404, closed[1], closed[2]]);
    expectVerdict(w, false, /4\.\d cm from its closed place \(needs under 4 cm\)/);
    place(w, 'blender_lid', closed, (6.9 * Math.PI) / 180);
    expectVerdict(w, true);
    place(w, 'blender_lid', closed, (7.1 * Math.PI) / 180);
    expectVerdict(w, false, /tilted 7\.1° \(needs under 7°\)/);
    const t = site(w, 'tcp');
    const ctx = new JudgeContext(w.sim, w.world.arms);
    place(w, 'blender_lid', [t[0], t[1], t[2] - 0.151]);
    expect(gripperFar(ctx, 'blender_lid', 0.15).ok).toBe(true);
    place(w, 'blender_lid', [t[0], t[1], t[2] - 0.149]);
    expect(gripperFar(ctx, 'blender_lid', 0.15).ok).toBe(false);
  });

  it('PickPlaceToasterToCounter: on the plate within 0.7 × its radius, gripper over 25 cm away', async () => {
    const w = await world('PickPlaceToasterToCounter');
    expectVerdict(w, false, /does not touch it/);
    const p = pos(w, 'plate');
    const r = 0.7 * 0.104;
    // Lying flat on the plate's floor (the slice is 1.5 cm thick), its centre just inside / outside the radius.
    const flat = Math.PI / 2;
    const lie = (dx: number) => {
      (w.sim.data.qpos as Float64Array).set([p[0] + dx, p[1], p[2] + 0.006 + 0.0074, Math.cos(flat / 2), 0, Math.sin(flat / 2), 0], adrOf(w, 'obj_free'));
      w.sim.forward();
    };
    lie(r - 0.001);
    expectVerdict(w, true);
    lie(r + 0.001);
    expectVerdict(w, false, /needs under 7\.3 cm/);
  });
});
