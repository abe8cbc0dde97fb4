import { afterEach, describe, expect, it } from 'vitest';
import { Sim } from '../../../../sim/sim';
import type { Vec3 } from '../../robots/math3';
import { SWITCH_TRAVEL_M } from './countertop';
import { buildKitchen, kitchenSpec, ON_REQUEST, type MainKind } from './kitchen';
import { blenderLid } from './objects';
import { BLENDER_LID, KitchenRuntime, TOASTER_ON_SEC } from './runtime';
import { buildKitchenScene } from './scene';
import type { KitchenObject } from './objects';

function push(sim: Sim, joint: string, forceN: number, steps: number): void {
  const dof = (sim.model.jnt_dofadr as Int32Array)[sim.requireId('joint', joint)];
  (sim.data.qfrc_applied as Float64Array)[dof] = forceN;
  sim.step(steps);
  (sim.data.qfrc_applied as Float64Array)[dof] = 0;
}

let sim: Sim | null = null;
afterEach(() => {
  sim?.dispose();
  sim = null;
});

async function load(kind: MainKind, objects: (k: ReturnType<typeof buildKitchen>) => KitchenObject[] = () => []): Promise<{ sim: Sim; rt: KitchenRuntime }> {
  const k = buildKitchen(4, kind);
  sim = await Sim.loadString(buildKitchenScene(k, objects(k)));
  sim.resetToKeyframe('home');
  const rt = new KitchenRuntime(k);
  rt.bind(sim);
  sim.step(50);
  return { sim, rt };
}

describe('on-request fixtures (fridge, electric kettle, blender, stand mixer, toaster)', () => {
  it('join a kitchen only when asked for, leaving the kitchen spec as drawn', () => {
    const plain = buildKitchen(4, 'microwave');
    for (const kind of ON_REQUEST) expect(plain.fixtures.some((f) => f.fixture.kind === kind)).toBe(false);
    for (const kind of ON_REQUEST) {
      const k = buildKitchen(4, kind, {}, 0.02);
      expect(k.fixture(kind).pos[1]).toBeCloseTo(0.02, 6);
      expect(k.spec.main.filter((m) => m !== kind)).toEqual(kitchenSpec(4).main);
    }
  });

  for (const kind of ON_REQUEST) {
    it(`${kind}: every door, lid and head moves under a push and reports it; switches latch as RoboCasa's do`, async () => {
      const { sim: s, rt } = await load(kind);
      const f = rt.fixture(kind).fixture;
      for (const j of f.joints) {
        const before = rt.norm(kind, j.label);
        if (j.role === 'button') {
          // Pressed down (towards the open end): the appliance latches on and stays on.
          push(s, j.joint, -20, 80);
          expect(rt.norm(kind, j.label), `${kind}.${j.label}`).toBeGreaterThan(0.95);
          s.step(200);
          const status = rt.report().find((r) => r.name === kind)?.status;
          expect(status?.turned_on, `${kind} turned_on`).toBe(true);
          continue;
        }
        const sign = Math.sign(j.openQ - j.closedQ) * (before > 0.5 ? -1 : 1);
        push(s, j.joint, sign * 6, 500);
        const after = rt.norm(kind, j.label);
        expect(Math.abs(after - before), `${kind}.${j.label} ${before} -> ${after}`).toBeGreaterThan(0.15);
        expect(rt.report().find((r) => r.name === kind)?.joints[j.label]).toBeCloseTo(after, 3);
        push(s, j.joint, -sign * 6, 500);
        expect(Math.abs(rt.norm(kind, j.label) - after), `${kind}.${j.label} back`).toBeGreaterThan(0.1);
      }
    });
  }

  it('the kettle and toaster are off until their switch is pressed down past 0.95 / 0.90', async () => {
    const { sim: s, rt } = await load('electric_kettle');
    expect(rt.kettleOn).toBe(false);
    const adr = (s.model.jnt_qposadr as Int32Array)[s.requireId('joint', 'electric_kettle_switch_slide')];
    (s.data.qpos as Float64Array)[adr] = -0.94 * SWITCH_TRAVEL_M;
    s.step(1);
    expect(rt.kettleOn).toBe(false);
    (s.data.qpos as Float64Array)[adr] = -0.96 * SWITCH_TRAVEL_M;
    s.step(1);
    expect(rt.kettleOn).toBe(true);
  });

  it('the kettle and toaster stay off left alone: their switches are sprung up and do not creep down', async () => {
    for (const [kind, label] of [
      ['electric_kettle', 'switch'],
      ['toaster', 'lever'],
    ] as const) {
      const { sim: s, rt } = await load(kind);
      s.step(s.stepsIn(6));
      expect(rt.norm(kind, label), `${kind}.${label}`).toBeLessThan(0.02);
      expect(rt.report().find((r) => r.name === kind)?.status.turned_on, `${kind} turned_on`).toBe(false);
      s.dispose();
      sim = null;
    }
  });

  it("the toaster's lever is held down while it toasts and pops up 25 s after it turned on (RoboCasa's 500 control steps), not before", async () => {
    const { sim: s, rt } = await load('toaster');
    const adr = (s.model.jnt_qposadr as Int32Array)[s.requireId('joint', 'toaster_lever_slide')];
    (s.data.qpos as Float64Array)[adr] = -SWITCH_TRAVEL_M;
    s.step(5);
    expect(rt.toasterOn).toBe(true);
    s.step(s.stepsIn(TOASTER_ON_SEC - 0.2));
    expect(rt.toasterOn).toBe(true);
    expect(rt.norm('toaster', 'lever')).toBeGreaterThan(0.9);
    s.step(s.stepsIn(0.3));
    expect(rt.toasterOn).toBe(false);
    expect(rt.norm('toaster', 'lever')).toBeLessThan(0.1);
    // Up it stays, and off.
    s.step(s.stepsIn(5));
    expect(rt.norm('toaster', 'lever')).toBeLessThan(0.1);
    expect(rt.toasterOn).toBe(false);
  });

  it('the stand mixer head rests open against its stop and closed on its column', async () => {
    const { sim: s, rt } = await load('stand_mixer');
    s.step(500);
    expect(rt.norm('stand_mixer', 'head')).toBeLessThan(0.01);
    push(s, 'stand_mixer_head_hinge', 8, 800);
    s.step(800);
    expect(rt.norm('stand_mixer', 'head')).toBeGreaterThan(0.99);
    expect(rt.report().find((r) => r.name === 'stand_mixer')?.status.head_open).toBe(true);
  });

  it("the blender reports lid_on_blender as RoboCasa's (within 0.04 m of its closed place, upright within 7°)", async () => {
    let closed: Vec3 = [0, 0, 0];
    const { sim: s, rt } = await load('blender', (k) => {
      closed = k.toWorld('blender', k.fixture('blender').fixture.sites.lid_closed);
      return [blenderLid(BLENDER_LID, [closed[0], closed[1], closed[2] - 0.026])];
    });
    s.step(300);
    expect(rt.lidOnBlender().on, JSON.stringify(rt.lidOnBlender())).toBe(true);
    expect(rt.report().find((r) => r.name === 'blender')?.status.lid_on_blender).toBe(true);
    const adr = (s.model.jnt_qposadr as Int32Array)[s.requireId('joint', `${BLENDER_LID}_free`)];
    const q = s.data.qpos as Float64Array;
    q.set([closed[0] + 0.041, closed[1], closed[2]], adr);
    s.forward();
    expect(rt.lidOnBlender().on).toBe(false);
    const tilt = (8 * Math.PI) / 180;
    q.set([closed[0], closed[1], closed[2], Math.cos(tilt / 2), Math.sin(tilt / 2), 0, 0], adr);
    s.forward();
    expect(rt.lidOnBlender().on).toBe(false);
  });
});
