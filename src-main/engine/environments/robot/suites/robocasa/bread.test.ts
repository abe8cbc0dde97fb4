/**
 * BreadSelection's judge on real sim state (a passing state, and states just past each of
 * RoboCasa's thresholds), and its reference solution on a development kitchen.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Vec3 } from '../../robots/math3';
import { createTaskWorld, runSolution, type TaskWorld } from '../../tasks/world';
import { expectVerdict, place, pos, sizeOf } from './arrange';

let ep: TaskWorld | null = null;
afterEach(() => {
  ep?.dispose();
  ep = null;
});

describe('robocasa BreadSelection', () => {
  it('judges the croissant and the jam each on the board (in contact, within 0.7 × its radius) and the gripper over 25 cm from the croissant', async () => {
    const w = (ep = await createTaskWorld({ taskId: 'robocasa/BreadSelection', variant: 'default', seed: 0 }));
    expectVerdict(w, false, /croissant .*does not touch it/);
    const b = pos(w, 'cutting_board');
    // The board's radius is its half diagonal (0.13 × 0.09 m): the threshold 0.7 × 15.8 cm.
    const th = 0.7 * Math.hypot(0.13, 0.09);
    const onBoard = (body: string, dx: number, dy: number): Vec3 => [b[0] + dx, b[1] + dy, b[2] + sizeOf(w, body)[2] / 2 - 0.0005];
    place(w, 'croissant', onBoard('croissant', -0.05, 0));
    place(w, 'jam', onBoard('jam', 0.05, 0));
    expectVerdict(w, true);
    // Each object's centre 1 mm inside and outside the threshold, along the board's long side (where it still rests on it).
    place(w, 'croissant', onBoard('croissant', -(th - 0.001), 0));
    expectVerdict(w, true);
    place(w, 'croissant', onBoard('croissant', -(th + 0.001), 0));
    expectVerdict(w, false, /croissant is 11\.\d cm from the centre of cutting_board \(needs under 11\.1 cm\)/);
    place(w, 'croissant', onBoard('croissant', -0.05, 0));
    place(w, 'jam', onBoard('jam', th - 0.001, 0));
    expectVerdict(w, true);
    place(w, 'jam', onBoard('jam', th + 0.001, 0));
    expectVerdict(w, false, /jam is 11\.\d cm from the centre of cutting_board \(needs under 11\.1 cm\)/);
    // Lifted 3 mm off the board: not in contact.
    place(w, 'jam', [b[0] + 0.05, b[1], b[2] + sizeOf(w, 'jam')[2] / 2 + 0.003]);
    expectVerdict(w, false, /jam .*does not touch it/);
    place(w, 'jam', onBoard('jam', 0.05, 0));
    expectVerdict(w, true);
    // The hand 24 cm straight above the croissant.
    const c = pos(w, 'croissant');
    await w.registry.invoke('move_to', { xyz: [c[0], c[1], c[2] + 0.24], tolM: 0.004 });
    place(w, 'croissant', onBoard('croissant', -0.05, 0));
    place(w, 'jam', onBoard('jam', 0.05, 0));
    expectVerdict(w, false, /gripper is 2\d\.\d cm from croissant \(needs more than 25\.0 cm\)/);
  }, 60_000);

  it('is solved by its reference solution on a development kitchen, and not before it runs', async () => {
    const w = (ep = await createTaskWorld({ taskId: 'robocasa/BreadSelection', variant: 'default', seed: 0 }));
    expect(w.judge().success).toBe(false);
    const r = await runSolution(w);
    expect(r.error).toBeUndefined();
    expect(r.verdict.success, r.verdict.reason).toBe(true);
  }, 180_000);
});
