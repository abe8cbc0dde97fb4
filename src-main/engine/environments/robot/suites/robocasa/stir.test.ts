/**
 * StirVegetables: RoboCasa's `update_state` stirring count step by step (movement, contact, grasp,
 * pot and vegetables), the judge on real sim state just past each threshold, and the reference
 * solution on a development kitchen.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Vec3 } from '../../robots/math3';
import { createTaskWorld, runSolution, type TaskWorld } from '../../tasks/world';
import { place, pos, setJoint } from './arrange';
import { STIR, stirStep, type StirSample, type StirState } from './stir';

let ep: TaskWorld | null = null;
afterEach(() => {
  ep?.dispose();
  ep = null;
});

/** Control steps of a stir: each vegetable moved `stepM` along x since the last, as given. */
function run(samples: number, stepM: number, edit: (s: StirSample, i: number) => void = () => {}): number {
  const st: StirState = { successTime: 0, prev: [null, null] };
  for (let i = 0; i < samples; i++) {
    const s: StirSample = {
      grasped: true,
      potOnKnob: true,
      veg: [0, 1].map((v) => ({ pos: [i * stepM, v * 0.05, 0] as Vec3, inPot: true, touched: v === 0 })),
    };
    edit(s, i);
    stirStep(st, s);
  }
  return st.successTime;
}

describe('robocasa StirVegetables', () => {
  it("counts as RoboCasa's update_state: movement over 0.05 cm per control step, the first vegetable touched, the spatula grasped", () => {
    // The first sample has nothing to compare with: 6 samples give 5 steps of movement.
    expect(run(6, 0.00051)).toBe(5);
    expect(run(6, 0.00049)).toBe(0);
    expect(STIR.steps).toBe(5);
    // Only the second vegetable touched: its contact is not carried back to the first.
    expect(
      run(6, 0.001, (s) => {
        s.veg[0].touched = false;
        s.veg[1].touched = true;
      }),
    ).toBe(0);
    // One vegetable still: no step counts.
    expect(run(6, 0.001, (s) => (s.veg[1].pos = [0, 0.05, 0]))).toBe(0);
    expect(run(6, 0.001, (s) => (s.veg[1].inPot = false))).toBe(0);
    expect(run(6, 0.001, (s) => (s.potOnKnob = false))).toBe(0);
    // Not grasped: nothing counts, and the positions it compares with stay where they were, so
    // the first step after the grasp again sees the whole move since (here 4 mm).
    expect(run(6, 0.001, (s, i) => (s.grasped = i === 0 || i >= 4))).toBe(2);
  });

  it('judges the count (5 control steps) and says how the pot and vegetables stand: 15 cm from the burner, its knob on, each within 0.7 × the pot radius', async () => {
    const w = (ep = await createTaskWorld({ taskId: 'robocasa/StirVegetables', variant: 'default', seed: 0 }));
    expect(w.judge().reason).toMatch(/stirred in the pot for 0 control steps/);
    const p = pos(w, 'pot');
    const burner = ['front_left', 'front_right'].find((b) => w.judge().reason.includes(b.replace('_', ' ')));
    expect(burner).toBeDefined();
    const r = (w.world.objects.find((o) => o.name === 'pot')?.sizeM as Vec3)[0] / 2;
    const vegIn = (name: string, dx: number, dy: number): void => {
      const h = (w.world.objects.find((o) => o.name === name)?.sizeM as Vec3)[2] / 2;
      place(w, name, [p[0] + dx, p[1] + dy, p[2] + 0.006 + h - 0.0005]);
    };
    vegIn('veg1', 0, 0.035);
    vegIn('veg2', 0, -0.035);
    expect(w.judge().reason).toMatch(/which is on; veg1 is 3\.5 cm .*needs under 8\.7 cm\); veg2 is 3\.5 cm/);
    // 0.7 × the pot's radius, 1 mm inside and outside.
    vegIn('veg1', 0.7 * r - 0.001, 0);
    expect(w.judge().reason).not.toMatch(/veg1 is [^;]*does not touch/);
    expect(w.judge().reason).toMatch(new RegExp(`veg1 is ${((0.7 * r - 0.001) * 100).toFixed(1)} cm`));
    // The pot 14.9 and 15.1 cm from the burner (its floor on the stove top either way).
    const potAt = (d: number): void => place(w, 'pot', [p[0] + d, p[1], p[2]]);
    potAt(0.149);
    expect(w.judge().reason).toMatch(/which is on/);
    potAt(0.151);
    expect(w.judge().reason).toMatch(/the pot is 15\.1 cm from the front (left|right) burner \(needs under 15 cm\)/);
    potAt(0);
    // The knob just under and over RoboCasa's 0.35 rad.
    setJoint(w, `stove_knob_${burner}_hinge`, 0.349);
    expect(w.judge().reason).toMatch(/whose knob is below 0.35 rad/);
    setJoint(w, `stove_knob_${burner}_hinge`, 0.351);
    expect(w.judge().reason).toMatch(/which is on/);
    // The count, kept by the tracker in snapshots: 4 steps fail, 5 pass.
    const withCount = (n: number): void => {
      const snap = w.sim.snapshot();
      const extra = snap.extra.robocasa_task as { n: number; t: StirState };
      w.sim.restore({ ...snap, extra: { ...snap.extra, robocasa_task: { ...extra, t: { ...extra.t, successTime: n } } } });
    };
    withCount(4);
    expect(w.judge().success).toBe(false);
    withCount(5);
    const v = w.judge();
    expect(v.success, v.reason).toBe(true);
  }, 60_000);

  it('is solved by its reference solution, and not before it runs', async () => {
    const w = (ep = await createTaskWorld({ taskId: 'robocasa/StirVegetables', variant: 'default', seed: 0 }));
    expect(w.judge().success).toBe(false);
    const r = await runSolution(w);
    expect(r.error).toBeUndefined();
    expect(r.verdict.success, r.verdict.reason).toBe(true);
  }, 180_000);
});
