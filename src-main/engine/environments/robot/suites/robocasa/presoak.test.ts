/**
 * PreSoakPan's judge on real sim state (a passing state, and states just past each of RoboCasa's
 * thresholds), and its reference solution on a development kitchen.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Vec3 } from '../../robots/math3';
import { createTaskWorld, runSolution, type TaskWorld } from '../../tasks/world';
import { expectVerdict, place, setJoint } from './arrange';

let ep: TaskWorld | null = null;
afterEach(() => {
  ep?.dispose();
  ep = null;
});

describe('robocasa PreSoakPan', () => {
  it('judges the water on (0.40 rad), pan and sponge wholly inside the basin (5 cm margin), the gripper 25 cm from both', async () => {
    const w = (ep = await createTaskWorld({ taskId: 'robocasa/PreSoakPan', variant: 'default', seed: 0 }));
    expectVerdict(w, false, /the water is off/);
    const st = (await w.registry.invoke('state', {})) as { fixtures: { name: string; interiors: { center: Vec3; sizeM: Vec3 }[] }[] };
    const basin = st.fixtures.find((f) => f.name === 'sink')?.interiors[0] as { center: Vec3; sizeM: Vec3 };
    const [cx, cy, cz] = basin.center;
    const lo = (i: number): number => basin.center[i] - basin.sizeM[i] / 2;
    const floor = cz - basin.sizeM[2] / 2 + 0.006;
    const panHalf = 0.104;
    place(w, 'obj1', [cx, cy, floor]);
    place(w, 'obj2', [cx, cy + 0.15, floor + 0.02]);
    setJoint(w, 'sink_handle_hinge', 0.399);
    expectVerdict(w, false, /the water is off/);
    setJoint(w, 'sink_handle_hinge', 0.401);
    expectVerdict(w, true);
    // The pan's box 1 mm inside the interior widened by 5 cm, and 1 mm past it (x, then y).
    place(w, 'obj1', [lo(0) - 0.05 + panHalf + 0.001, cy, floor]);
    expectVerdict(w, true);
    place(w, 'obj1', [lo(0) - 0.05 + panHalf - 0.001, cy, floor]);
    expectVerdict(w, false, /obj1 is not wholly inside the sink/);
    place(w, 'obj1', [cx, lo(1) - 0.05 + panHalf - 0.001, floor]);
    expectVerdict(w, false, /obj1 is not wholly inside the sink/);
    place(w, 'obj1', [cx, cy, floor]);
    // The sponge's top 1 mm under and over the interior's top widened by 5 cm.
    const top = cz + basin.sizeM[2] / 2 + 0.05;
    place(w, 'obj2', [cx, cy + 0.15, top - 0.018 - 0.001]);
    expectVerdict(w, true);
    place(w, 'obj2', [cx, cy + 0.15, top - 0.018 + 0.001]);
    expectVerdict(w, false, /obj2 is not wholly inside the sink/);
    place(w, 'obj2', [cx, cy + 0.15, floor + 0.02]);
    // The hand 24.7 cm from the sponge fails, 25.3 cm passes.
    const s: Vec3 = [cx, cy + 0.15, floor + 0.02];
    await w.registry.invoke('move_to', { xyz: [s[0], s[1], s[2] + 0.247], tolM: 0.001 });
    place(w, 'obj1', [cx, cy, floor]);
    place(w, 'obj2', s);
    expectVerdict(w, false, /needs more than 25\.0 cm/);
    await w.registry.invoke('move_to', { xyz: [s[0], s[1], s[2] + 0.253], tolM: 0.001 });
    place(w, 'obj1', [cx, cy, floor]);
    place(w, 'obj2', s);
    expectVerdict(w, true);
  }, 60_000);

  it('is solved by its reference solution, and not before it runs', async () => {
    const w = (ep = await createTaskWorld({ taskId: 'robocasa/PreSoakPan', variant: 'default', seed: 0 }));
    expect(w.judge().success).toBe(false);
    const r = await runSolution(w);
    expect(r.error).toBeUndefined();
    expect(r.verdict.success, r.verdict.reason).toBe(true);
  }, 180_000);
});
