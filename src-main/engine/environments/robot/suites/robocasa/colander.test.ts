/**
 * WashFruitColander's judge on real sim state (a passing state, and states just past each of
 * RoboCasa's thresholds), and its reference solution on a development kitchen.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Vec3 } from '../../robots/math3';
import { createTaskWorld, runSolution, type TaskWorld } from '../../tasks/world';
import { expectVerdict, place, setJoint, sizeOf } from './arrange';
import { spoutTip } from './sink';

let ep: TaskWorld | null = null;
afterEach(() => {
  ep?.dispose();
  ep = null;
});

describe('robocasa WashFruitColander', () => {
  it('judges every fruit in the colander (contact, 0.7 × its radius) and the colander under the running water (its radius of the stream, below the spout)', async () => {
    // Development kitchen 0 draws three fruits.
    const w = (ep = await createTaskWorld({ taskId: 'robocasa/WashFruitColander', variant: 'default', seed: 0 }));
    const fruits = w.world.objects.filter((o) => /^fruit\d$/.test(o.name)).map((o) => o.name);
    expect(fruits.length).toBe(3);
    expectVerdict(w, false, /fruit0 .*does not touch it/);
    const r = sizeOf(w, 'colander')[0] / 2;
    const t = spoutTip(w.sim);
    const floorZ = -0.174;
    const putFruit = (c: Vec3, dx = 0): void =>
      fruits.forEach((f, i) => {
        const a = (2 * Math.PI * i) / fruits.length;
        const d = i === 0 ? dx : 0.038;
        place(w, f, [c[0] + d * Math.cos(a), c[1] + d * Math.sin(a), c[2] + 0.006 + sizeOf(w, f)[2] / 2 - 0.0005]);
      });
    const at = (dx: number): Vec3 => [t[0] - dx, t[1], floorZ];
    place(w, 'colander', at(0.04));
    putFruit(at(0.04), 0.036);
    expectVerdict(w, false, /the water is off/);
    setJoint(w, 'sink_handle_hinge', 1.2);
    expectVerdict(w, true);
    // The colander's origin 1 mm inside and outside its radius of the stream's axis.
    place(w, 'colander', at(r - 0.001));
    putFruit(at(r - 0.001), 0.036);
    expectVerdict(w, true);
    place(w, 'colander', at(r + 0.001));
    putFruit(at(r + 0.001), 0.036);
    expectVerdict(w, false, /not under the running water$/);
    // Handle at RoboCasa's water threshold (0.40 rad): off just under it.
    place(w, 'colander', at(0.04));
    putFruit(at(0.04), 0.036);
    setJoint(w, 'sink_handle_hinge', 0.399);
    expectVerdict(w, false, /the water is off/);
    setJoint(w, 'sink_handle_hinge', 0.401);
    expectVerdict(w, true);
    // One fruit 1 mm inside and outside 0.7 × the colander's radius (static: its wall would stop it short of that).
    const th = 0.7 * r;
    putFruit(at(0.04), th - 0.001);
    expectVerdict(w, true);
    putFruit(at(0.04), th + 0.001);
    expectVerdict(w, false, /fruit0 is 6\.0 cm from the centre of colander \(needs under 5\.9 cm\)/);
    // A fruit held 3 mm over the floor touches nothing of the colander.
    putFruit(at(0.04), 0.036);
    const f2 = fruits[2];
    const p = w.sim.data.xpos as Float64Array;
    const id = w.sim.requireId('body', f2);
    place(w, f2, [p[3 * id], p[3 * id + 1], p[3 * id + 2] + 0.0035]);
    expectVerdict(w, false, new RegExp(`${f2} .*does not touch it`));
  }, 60_000);

  it('is solved by its reference solution on a development kitchen, and not before it runs', async () => {
    const w = (ep = await createTaskWorld({ taskId: 'robocasa/WashFruitColander', variant: 'default', seed: 0 }));
    expect(w.judge().success).toBe(false);
    const r = await runSolution(w);
    expect(r.error).toBeUndefined();
    expect(r.verdict.success, r.verdict.reason).toBe(true);
  }, 180_000);
});
