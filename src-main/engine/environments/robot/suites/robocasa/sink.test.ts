/**
 * The judges of the tasks in sink.ts on real sim state: a state that passes, and states just past
 * each of RoboCasa's thresholds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTaskWorld, runSolution, type TaskWorld } from '../../tasks/world';
import { CONTROL_STEP_SEC } from './define';
import { SCRUB, spoutTip, underWater, WASH_STEPS } from './sink';
import { expectVerdict, place, pos, sizeOf } from './arrange';

let ep: TaskWorld | null = null;
afterEach(() => {
  ep?.dispose();
  ep = null;
});

async function world(task: string, seed = 0): Promise<TaskWorld> {
  ep = await createTaskWorld({ taskId: `robocasa/${task}`, variant: 'default', seed });
  return ep;
}

describe('robocasa sink-basin judges', () => {
  it('PickPlaceSinkToCounter: on the container within 0.7 × its radius, the container on the counter, the gripper over 25 cm away', async () => {
    const w = await world('PickPlaceSinkToCounter');
    expectVerdict(w, false, /does not touch it/);
    const c = pos(w, 'container');
    const th = 0.7 * (sizeOf(w, 'container')[0] / 2);
    const h = sizeOf(w, 'obj')[2] / 2;
    const onFloor = c[2] + 0.006 + h - 0.0005;
    place(w, 'obj', [c[0] + th - 0.001, c[1], onFloor]);
    expectVerdict(w, true);
    place(w, 'obj', [c[0] + th + 0.001, c[1], onFloor]);
    expectVerdict(w, false, /needs under/);
    // The container lifted 3 mm off the counter, the object still resting on it.
    place(w, 'container', [c[0], c[1], c[2] + 0.003]);
    place(w, 'obj', [c[0], c[1], onFloor + 0.003]);
    expectVerdict(w, false, /container does not touch a counter/);
    place(w, 'container', c);
    place(w, 'obj', [c[0], c[1], onFloor]);
    expectVerdict(w, true);
    // The hand 24 cm straight above the object.
    await w.registry.invoke('move_to', { xyz: [c[0], c[1], onFloor + 0.24], tolM: 0.004 });
    expectVerdict(w, false, /needs more than 25\.0 cm/);
  }, 60_000);

  it('WashLettuce: 25 control steps under the running water, not 24; off-axis, above the stream or with the water off none count', async () => {
    const w = await world('WashLettuce');
    const r = sizeOf(w, 'lettuce')[0] / 2;
    const setHandle = (q: number): void => {
      const adr = (w.sim.model.jnt_qposadr as Int32Array)[w.sim.requireId('joint', 'sink_handle_hinge')];
      (w.sim.data.qpos as Float64Array)[adr] = q;
      w.sim.forward();
    };
    const t = spoutTip(w.sim);
    // RoboCasa's check on sim state: within the radius and below the stream's top, with the water on.
    place(w, 'lettuce', [t[0] + r - 0.001, t[1], t[2] - 0.001]);
    expect(underWater(w.sim, 'lettuce', r, true)).toBe(true);
    expect(underWater(w.sim, 'lettuce', r, false)).toBe(false);
    place(w, 'lettuce', [t[0] + r + 0.001, t[1], t[2] - 0.001]);
    expect(underWater(w.sim, 'lettuce', r, true)).toBe(false);
    place(w, 'lettuce', [t[0], t[1], t[2] + 0.001]);
    expect(underWater(w.sim, 'lettuce', r, true)).toBe(false);
    // Stepped: the lettuce dropped under the spout counts only while the water runs.
    const perControl = Math.round(CONTROL_STEP_SEC / w.sim.timestepSec);
    place(w, 'lettuce', [t[0], t[1], t[2] - 0.08]);
    w.sim.step(perControl * 30);
    expectVerdict(w, false, /for 0 control steps/);
    setHandle(1.2);
    let reason = '';
    for (let i = 0; i < 60 && !/for 24 control/.test(reason); i++) {
      w.sim.step(perControl);
      reason = w.judge().reason;
    }
    expect(reason).toMatch(/for 24 control steps \(needs 25\)/);
    expectVerdict(w, false);
    w.sim.step(perControl);
    expectVerdict(w, true, new RegExp(`for ${WASH_STEPS} control steps`));
  }, 60_000);

  it('ScrubCuttingBoard: 5 contacts 2 cm apart spanning 10 cm, the gripper over 15 cm from the sponge; contacts count only while it is held', async () => {
    const w = await world('ScrubCuttingBoard');
    const b = pos(w, 'cutting_board');
    // On the board but not held: no contact counts.
    place(w, 'sponge', [b[0], b[1], b[2] + 0.02]);
    w.sim.step(Math.round((CONTROL_STEP_SEC / w.sim.timestepSec) * 20));
    expectVerdict(w, false, /at 0 places/);
    const withContacts = (pts: [number, number][]): void => {
      const snap = w.sim.snapshot();
      const extra = snap.extra.robocasa_task as { n: number; t: unknown };
      w.sim.restore({ ...snap, extra: { ...snap.extra, robocasa_task: { ...extra, t: pts } } });
    };
    const row = (n: number, dx: number): [number, number][] => Array.from({ length: n }, (_, i) => [b[0] + i * dx, b[1]]);
    withContacts(row(5, 0.1 / 4 + 0.0001));
    expectVerdict(w, true);
    withContacts(row(4, 0.034));
    expectVerdict(w, false, /at 4 places/);
    withContacts(row(5, 0.1 / 4 - 0.0003));
    expectVerdict(w, false, /span 9\.9 cm \(needs 10 cm\)/);
    withContacts(row(5, 0.03));
    const s = pos(w, 'sponge');
    await w.registry.invoke('move_to', { xyz: [s[0], s[1], s[2] + 0.145], tolM: 0.004 });
    expectVerdict(w, false, /needs more than 15\.0 cm/);
    expect(SCRUB.contacts).toBe(5);
  }, 60_000);

  for (const task of ['PickPlaceSinkToCounter', 'WashLettuce', 'ScrubCuttingBoard']) {
    it(`${task} is solved by its reference solution, and not before it runs`, async () => {
      const w = await world(task);
      expect(w.judge().success).toBe(false);
      const r = await runSolution(w);
      expect(r.error).toBeUndefined();
      expect(r.verdict.success, r.verdict.reason).toBe(true);
    }, 120_000);
  }
});
