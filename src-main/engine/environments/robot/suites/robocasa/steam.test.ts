/**
 * SteamInMicrowave's judge on real sim state (a passing state, and states just past each of
 * RoboCasa's thresholds), and its reference solution on a development kitchen.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Vec3 } from '../../robots/math3';
import { createTaskWorld, runSolution, type TaskWorld } from '../../tasks/world';
import { expectVerdict, place, pos, setJoint, sizeOf } from './arrange';

let ep: TaskWorld | null = null;
afterEach(() => {
  ep?.dispose();
  ep = null;
});

describe('robocasa SteamInMicrowave', () => {
  it('judges the vegetable in the bowl (0.7 × its radius), the bowl wholly inside the microwave, the door shut (0.5 %) and the microwave on', async () => {
    const w = (ep = await createTaskWorld({ taskId: 'robocasa/SteamInMicrowave', variant: 'default', seed: 0 }));
    expectVerdict(w, false, /does not touch it/);
    const m = pos(w, 'microwave');
    const bowlR = sizeOf(w, 'bowl')[0] / 2;
    const vegR = sizeOf(w, 'vegetable')[2] / 2;
    // The interior starts 0.18 m in front of the microwave's centre; 5 cm of margin in front of that.
    const inside = (dx: number): Vec3 => [m[0] - 0.18 - 0.05 + bowlR + dx, m[1] + 0.07, 0.013];
    const vegIn = (b: Vec3, dx = 0): Vec3 => [b[0] + dx, b[1], b[2] + 0.006 + vegR - 0.0005];
    const b = inside(0.06);
    place(w, 'bowl', b);
    place(w, 'vegetable', vegIn(b));
    const openQ = -1.75;
    // Shut, then started: RoboCasa's microwave latches on from its start button with the door not open.
    setJoint(w, 'microwave_door_hinge', 0);
    expectVerdict(w, false, /microwave is off/);
    setJoint(w, 'microwave_start_button_slide', -0.0049);
    w.sim.step(1);
    setJoint(w, 'microwave_start_button_slide', 0);
    place(w, 'bowl', b);
    place(w, 'vegetable', vegIn(b));
    expectVerdict(w, true);
    // The door at 0.49 % of its range passes, at 0.51 % it does not.
    setJoint(w, 'microwave_door_hinge', 0.0049 * openQ);
    expectVerdict(w, true);
    setJoint(w, 'microwave_door_hinge', 0.0051 * openQ);
    expectVerdict(w, false, /door is 0\.51 % open \(needs at most 0\.5 %\)/);
    setJoint(w, 'microwave_door_hinge', 0);
    // The vegetable 1 mm inside and outside 0.7 × the bowl's radius.
    const th = 0.7 * bowlR;
    place(w, 'vegetable', vegIn(b, th - 0.001));
    expectVerdict(w, true);
    place(w, 'vegetable', vegIn(b, th + 0.001));
    expectVerdict(w, false, /needs under/);
    // The bowl at the interior's front edge (with its 5 cm margin), and 2 mm past it.
    const edge = inside(0.001);
    place(w, 'bowl', edge);
    place(w, 'vegetable', vegIn(edge));
    expectVerdict(w, true);
    const out = inside(-0.002);
    place(w, 'bowl', out);
    place(w, 'vegetable', vegIn(out));
    expectVerdict(w, false, /bowl is not wholly inside the microwave/);
  }, 60_000);

  it('is solved by its reference solution on a development kitchen, and not before it runs', async () => {
    const w = (ep = await createTaskWorld({ taskId: 'robocasa/SteamInMicrowave', variant: 'default', seed: 0 }));
    expect(w.judge().success).toBe(false);
    const r = await runSolution(w);
    expect(r.error).toBeUndefined();
    expect(r.verdict.success, r.verdict.reason).toBe(true);
  }, 180_000);
});
