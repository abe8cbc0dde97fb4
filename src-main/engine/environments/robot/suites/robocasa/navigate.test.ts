/**
 * NavigateKitchen: RoboCasa's check at each threshold on real sim state (the base 0.199 / 0.201 m
 * from the placement pose, its heading just inside and outside cos 0.98), the draw of start and
 * target fixtures, what `state` shows of them, and the reference solution on a development kitchen.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTaskWorld, runSolution, type TaskWorld } from '../../tasks/world';
import { expectVerdict, setJoint } from './arrange';
import type { FloorPlan } from './floorplan';
import { STANDOFF_M, TARGETS } from './navigate';
import { COUNTER_FRONT_X } from './kitchen';

let ep: TaskWorld | null = null;
afterEach(() => {
  ep?.dispose();
  ep = null;
});

async function world(seed = 0): Promise<TaskWorld> {
  ep = await createTaskWorld({ taskId: 'robocasa/NavigateKitchen', variant: 'default', seed });
  return ep;
}

const state = async (w: TaskWorld) =>
  (await w.registry.invoke('state', {})) as Record<string, unknown> & { floorPlan: FloorPlan; base: { position: [number, number]; yaw: number } };

function putBase(w: TaskWorld, x: number, y: number, yaw: number): void {
  setJoint(w, 'base_x', x);
  setJoint(w, 'base_y', y);
  setJoint(w, 'base_yaw', yaw);
}

describe('robocasa/NavigateKitchen', () => {
  it('judges the base within 0.20 m of the placement pose in front of the target and cos(yaw error) >= 0.98', async () => {
    const w = await world(0);
    expectVerdict(w, false, /m from the placement pose in front of the/);
    // The placement pose, worked out here from the kitchen's own layout: the counter's front edge
    // is at x = COUNTER_FRONT_X along the main run, the base stands STANDOFF_M in front of it.
    const f = (await state(w)).floorPlan.fixtures.find((x) => x.name === w.goal.target);
    expect(f).toBeDefined();
    const y = f?.position[1] ?? NaN;
    const x = COUNTER_FRONT_X - STANDOFF_M;
    putBase(w, x, y, 0);
    expectVerdict(w, true);
    putBase(w, x, y + 0.199, 0);
    expectVerdict(w, true);
    putBase(w, x, y - 0.201, 0);
    expectVerdict(w, false, /0\.201 m from the placement pose .*needs at most 0\.2 m/);
    putBase(w, x - 0.1414, y + 0.1414, 0);
    expectVerdict(w, true);
    putBase(w, x - 0.1425, y + 0.1425, 0);
    expectVerdict(w, false, /0\.20\d m from/);
    // acos(0.98) = 0.2014 rad.
    putBase(w, x, y, 0.2);
    expectVerdict(w, true);
    putBase(w, x, y, -0.203);
    expectVerdict(w, false, /cosine of its heading error is 0\.979\d \(needs at least 0\.98\)/);
    putBase(w, x, y, Math.PI);
    expectVerdict(w, false, /cosine of its heading error is -1\.0000/);
  });

  it('starts in front of one fixture and names a target over 1 m away that RoboCasa allows; state shows no goal pose', async () => {
    const targets = new Set<string>();
    for (let seed = 0; seed < 8; seed++) {
      const w = await world(seed);
      const s = await state(w);
      expect(Object.keys(s).sort()).toEqual(['arms', 'base', 'fixtures', 'floorPlan', 'objects', 'timeSec']);
      expect(s.base.position[0]).toBeCloseTo(0, 2);
      expect(s.base.position[1]).toBeCloseTo(0, 2);
      expect(s.base.yaw).toBeCloseTo(0, 2);
      const plan = s.floorPlan.fixtures;
      const target = plan.find((f) => f.name === w.goal.target);
      expect(TARGETS).toContain(target?.kind);
      // The start: the main-run fixture in front of the base (RoboCasa's ±5 cm spawn deviation).
      const start = plan.filter((f) => f.yaw === 0).sort((a, b) => Math.abs(a.position[1]) - Math.abs(b.position[1]))[0];
      expect(Math.abs(start.position[1])).toBeLessThan(0.051);
      expect(Math.hypot((target?.position[0] ?? 0) - start.position[0], (target?.position[1] ?? 0) - start.position[1])).toBeGreaterThan(1);
      expect(w.instruction).toMatch(/(Navigate to|Drive over to|Go to|Move the robot to) the [a-z ]+/);
      expect(w.registry.list().map((p) => p.name)).toContain('move_base');
      expect(w.registry.list().map((p) => p.name)).not.toContain('open');
      targets.add(target?.kind ?? '');
      w.dispose();
      ep = null;
    }
    expect(targets.size).toBeGreaterThan(2);
  }, 60_000);

  it('is solved by its reference solution on a development kitchen, and not before it runs', async () => {
    const w = await world(1);
    expect(w.judge().success).toBe(false);
    const r = await runSolution(w);
    expect(r.error).toBeUndefined();
    expect(r.verdict.success, r.verdict.reason).toBe(true);
  }, 60_000);
});
