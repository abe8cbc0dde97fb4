/**
 * Every robocasa task's judge: a state that passes, and states that miss each of RoboCasa's
 * thresholds by just over it (the fixture joint just short of open/closed, the object just outside
 * the receptacle radius or the interior margin, the gripper just inside 0.25 m).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Vec3 } from '../../robots/math3';
import { createTaskWorld, type TaskWorld } from '../../tasks/world';
import { JudgeContext } from '../../tasks/judge';
import { robocasaTasks } from './index';
import { expectVerdict, place, pos, setJoint, site } from './arrange';

let ep: TaskWorld | null = null;
afterEach(() => {
  ep?.dispose();
  ep = null;
});

async function world(task: string, seed = 0): Promise<TaskWorld> {
  ep = await createTaskWorld({ taskId: `robocasa/${task}`, variant: 'default', seed });
  return ep;
}

describe('robocasa judges', () => {
  it('lists the implemented tasks under the three groups', () => {
    expect(robocasaTasks.length).toBeGreaterThan(0);
    for (const t of robocasaTasks) expect(t.family).toMatch(/^robocasa-(atomic-seen|composite-seen|composite-unseen)$/);
  });

  it('OpenDrawer: open at 95 % of the slide, not at 94 %', async () => {
    const w = await world('OpenDrawer');
    expectVerdict(w, false);
    setJoint(w, 'drawer_slide', 0.95 * 0.26 + 1e-4);
    expectVerdict(w, true);
    setJoint(w, 'drawer_slide', 0.9449 * 0.26);
    expectVerdict(w, false, /94\.5 % open \(needs 95 %\)/);
  });

  it('OpenCabinet: open at 90 % of the hinge range, not just under', async () => {
    const w = await world('OpenCabinet');
    const open =
      Math.sign(
        w.sim.model.jnt_range[2 * w.sim.requireId('joint', 'cabinet_door_hinge')] +
          w.sim.model.jnt_range[2 * w.sim.requireId('joint', 'cabinet_door_hinge') + 1],
      ) * 1.75;
    setJoint(w, 'cabinet_door_hinge', open * 0.9 + Math.sign(open) * 0.002);
    expectVerdict(w, true);
    setJoint(w, 'cabinet_door_hinge', open * 0.9 - Math.sign(open) * 0.005);
    expectVerdict(w, false, /needs 90 %/);
  });

  it('CloseToasterOvenDoor: closed at 0.5 % of the range, not at 0.6 %', async () => {
    const w = await world('CloseToasterOvenDoor');
    expectVerdict(w, false);
    setJoint(w, 'toaster_oven_door_hinge', -1.48 * 0.004);
    expectVerdict(w, true);
    setJoint(w, 'toaster_oven_door_hinge', -1.48 * 0.006);
    expectVerdict(w, false, /needs at most 0\.5 %/);
  });

  it('TurnOnMicrowave: on (start pressed past its depth) and the gripper over 15 cm from the button', async () => {
    const w = await world('TurnOnMicrowave');
    expectVerdict(w, false, /microwave is off/);
    setJoint(w, 'microwave_start_button_slide', -0.0047);
    w.sim.step(1);
    expectVerdict(w, false, /microwave is off/);
    setJoint(w, 'microwave_start_button_slide', -0.0049);
    w.sim.step(1);
    expectVerdict(w, true);
  });

  it('TurnOffStove: off below 0.35 rad, on at 0.36', async () => {
    const w = await world('TurnOffStove');
    expectVerdict(w, false);
    const knob = w.goal.knob.replace('stove_', '');
    setJoint(w, `stove_knob_${knob}_hinge`, 0.345);
    expectVerdict(w, true);
    setJoint(w, `stove_knob_${knob}_hinge`, 0.36);
    expectVerdict(w, false, /off below 0\.35/);
  });

  it('TurnOnSinkFaucet: water on above 0.40 rad, off at 0.39', async () => {
    const w = await world('TurnOnSinkFaucet');
    expectVerdict(w, false);
    setJoint(w, 'sink_handle_hinge', 0.41);
    expectVerdict(w, true);
    setJoint(w, 'sink_handle_hinge', 0.39);
    expectVerdict(w, false, /water runs for 0\.40/);
  });

  it('SlideDishwasherRack: fully out at 95 % (or in at 5 %), as the instruction says', async () => {
    for (const seed of [0, 1, 2, 3]) {
      const w = await world('SlideDishwasherRack', seed);
      const pull = w.goal.pull === 'yes';
      expect(w.instruction.includes(pull ? 'out' : ' in')).toBe(true);
      setJoint(w, 'dishwasher_rack_slide', pull ? 0.95 * 0.24 + 1e-4 : 0.05 * 0.24 - 1e-4);
      expectVerdict(w, true);
      setJoint(w, 'dishwasher_rack_slide', pull ? 0.95 * 0.24 - 0.002 : 0.05 * 0.24 + 0.002);
      expectVerdict(w, false, /% out/);
      w.dispose();
      ep = null;
    }
  });

  it('CoffeeSetupMug: within 4 cm across and 10 cm in height of the dispenser, gripper over 25 cm away', async () => {
    const w = await world('CoffeeSetupMug');
    expectVerdict(w, false);
    const k = w.world.objects.find((o) => o.name === 'coffee_machine');
    expect(k).toBeDefined();
    const m = pos(w, 'coffee_machine');
    const target: Vec3 = [m[0] - 0.12, m[1] + 0.03, 0.05];
    place(w, 'obj', [target[0] + 0.039, target[1], 0.0452]);
    expectVerdict(w, true);
    place(w, 'obj', [target[0] + 0.041, target[1], 0.0452]);
    expectVerdict(w, false, /needs under 4\.0 cm/);
  });

  it('PickPlaceCounterToCabinet: wholly inside the cabinet within 5 cm, not 5.2 cm out', async () => {
    const w = await world('PickPlaceCounterToCabinet');
    expectVerdict(w, false);
    const c = pos(w, 'cabinet');
    const size = w.world.objects.find((o) => o.name === 'obj')?.sizeM as Vec3;
    // The cabinet interior starts 0.16 m in front of its centre; 5 cm of margin in front of that.
    const frontEdge = c[0] - 0.16 - 0.05;
    place(w, 'obj', [frontEdge + size[0] / 2 + 0.001, c[1], 0.012 + size[2] / 2 + 0.001]);
    expectVerdict(w, true);
    place(w, 'obj', [frontEdge + size[0] / 2 - 0.002, c[1], 0.012 + size[2] / 2 + 0.001]);
    expectVerdict(w, false, /not wholly inside the cabinet/);
  });

  it('PickPlaceCounterToStove: touching the pan within 7 cm of its centre', async () => {
    const w = await world('PickPlaceCounterToStove');
    expectVerdict(w, false);
    const p = pos(w, 'container');
    const size = w.world.objects.find((o) => o.name === 'obj')?.sizeM as Vec3;
    place(w, 'obj', [p[0] + 0.069, p[1], p[2] + 0.006 + size[2] / 2 - 0.0005]);
    expectVerdict(w, true);
    place(w, 'obj', [p[0] + 0.071, p[1], p[2] + 0.006 + size[2] / 2 - 0.0005]);
    expectVerdict(w, false, /needs under 7\.0 cm/);
    place(w, 'obj', [p[0], p[1], p[2] + 0.006 + size[2] / 2 + 0.003]);
    expectVerdict(w, false, /does not touch it/);
  });

  it('PickPlaceDrawerToCounter: lying on a counter, gripper over 25 cm away, not within', async () => {
    const w = await world('PickPlaceDrawerToCounter');
    expectVerdict(w, false, /does not touch a counter/);
    const size = w.world.objects.find((o) => o.name === 'obj')?.sizeM as Vec3;
    place(w, 'obj', [0.36, -0.3, size[2] / 2 - 0.0005]);
    expectVerdict(w, true);
  });

  it("RoboCasa's gripper_obj_far: the TCP more than 25 cm from the object, not 24.9 cm", async () => {
    const w = await world('PickPlaceDrawerToCounter');
    const t = site(w, 'tcp');
    const { gripperFar } = await import('./judging');
    const ctx = new JudgeContext(w.sim, w.world.arms);
    place(w, 'obj', [t[0], t[1], t[2] - 0.251]);
    expect(gripperFar(ctx, 'obj').ok).toBe(true);
    place(w, 'obj', [t[0], t[1], t[2] - 0.249]);
    expect(gripperFar(ctx, 'obj')).toEqual({ ok: false, says: expect.stringMatching(/24\.9 cm from obj \(needs more than 25\.0 cm\)/) });
  });

  it('KettleBoiling: on the stove within 15 cm of a burner that is on', async () => {
    const w = await world('KettleBoiling');
    expectVerdict(w, false);
    const st = pos(w, 'stove');
    const burner: Vec3 = [st[0] - 0.06, st[1] + 0.14, 0.03];
    place(w, 'obj', [burner[0] + 0.149, burner[1], 0.03 + 0.055 - 0.0005]);
    setJoint(w, 'stove_knob_front_left_hinge', 0.36);
    expectVerdict(w, true);
    setJoint(w, 'stove_knob_front_left_hinge', 0.34);
    expectVerdict(w, false, /below 0\.35 rad/);
    setJoint(w, 'stove_knob_front_left_hinge', 0.36);
    place(w, 'obj', [burner[0] - 0.151, burner[1], 0.03 + 0.055 - 0.0005]);
    expectVerdict(w, false, /over no burner/);
  });

  it('WeighIngredients: on the scale within 0.7 × its radius, upright within 15°, the cabinet closed', async () => {
    const w = await world('WeighIngredients');
    const s = pos(w, 'digital_scale');
    const size = w.world.objects.find((o) => o.name === 'obj')?.sizeM as Vec3;
    const hinge = w.sim.requireId('joint', 'cabinet_door_hinge');
    place(w, 'obj', [s[0] + 0.048, s[1], s[2] + size[2] / 2 - 0.0005]);
    setJoint(w, 'cabinet_door_hinge', 0);
    void hinge;
    expectVerdict(w, true);
    place(w, 'obj', [s[0] + 0.05, s[1], s[2] + size[2] / 2 - 0.0005]);
    expectVerdict(w, false, /needs under 4\.9 cm/);
    place(w, 'obj', [s[0], s[1], s[2] + size[2] / 2 + 0.002], (14 * Math.PI) / 180);
    expectVerdict(w, true);
    place(w, 'obj', [s[0], s[1], s[2] + size[2] / 2 + 0.004], (16 * Math.PI) / 180);
    expectVerdict(w, false, /tilted 16\.0° \(needs under 15°\)/);
    place(w, 'obj', [s[0], s[1], s[2] + size[2] / 2 - 0.0005]);
    setJoint(w, 'cabinet_door_hinge', Math.sign(w.sim.model.jnt_range[2 * hinge] + w.sim.model.jnt_range[2 * hinge + 1]) * 1.75 * 0.006);
    expectVerdict(w, false, /needs at most 0\.5 %/);
  });

  it('PrepareCoffee: under the dispenser, the machine on, the gripper clear of mug and button', async () => {
    const w = await world('PrepareCoffee');
    const m = pos(w, 'coffee_machine');
    const target: Vec3 = [m[0] - 0.12, m[1] + 0.03, 0.05];
    place(w, 'obj', [target[0], target[1], 0.0452]);
    expectVerdict(w, false, /coffee machine is off/);
    setJoint(w, 'coffee_machine_start_button_slide', -0.0049);
    w.sim.step(1);
    setJoint(w, 'coffee_machine_start_button_slide', 0);
    place(w, 'obj', [target[0], target[1] + 0.039, 0.0452]);
    expectVerdict(w, true);
    place(w, 'obj', [target[0], target[1] + 0.041, 0.0452]);
    expectVerdict(w, false, /needs under 4\.0 cm/);
  });

  it('RinseSinkBasin: the water has run with the spout left, center and right, each at some step', async () => {
    const w = await world('RinseSinkBasin');
    w.sim.step(1);
    expectVerdict(w, false, /spout left, center, right/);
    setJoint(w, 'sink_handle_hinge', 0.41);
    w.sim.step(1);
    expectVerdict(w, false, /spout left, right$/);
    // The spout's thirds of its -0.9..0.9 range: left above 0.3 rad, right below -0.3 rad.
    setJoint(w, 'sink_spout_hinge', 0.31);
    w.sim.step(1);
    setJoint(w, 'sink_spout_hinge', -0.29);
    w.sim.step(1);
    expectVerdict(w, false, /spout right$/);
    setJoint(w, 'sink_handle_hinge', 0.39);
    setJoint(w, 'sink_spout_hinge', -0.5);
    w.sim.step(1);
    expectVerdict(w, false, /spout right$/);
    setJoint(w, 'sink_handle_hinge', 0.41);
    setJoint(w, 'sink_spout_hinge', -0.5);
    w.sim.step(1);
    expectVerdict(w, true);
  });

  it('WaffleReheat: the waffle in its bowl, the bowl wholly inside the microwave, the microwave on', async () => {
    const w = await world('WaffleReheat');
    const m = pos(w, 'microwave');
    const bowlSize = w.world.objects.find((o) => o.name === 'waffle_container')?.sizeM as Vec3;
    // The interior starts 0.18 m in front of the microwave's centre; 5 cm of margin in front of that.
    const inside = (dx: number): Vec3 => [m[0] - 0.18 - 0.05 + bowlSize[0] / 2 + dx, m[1] + 0.07, 0.013];
    const b = inside(0.06);
    place(w, 'waffle_container', b);
    place(w, 'waffle', [b[0], b[1], b[2] + 0.006 + 0.009 - 0.0005]);
    expectVerdict(w, false, /microwave is off/);
    setJoint(w, 'microwave_start_button_slide', -0.0049);
    w.sim.step(1);
    setJoint(w, 'microwave_start_button_slide', 0);
    place(w, 'waffle_container', b);
    place(w, 'waffle', [b[0] + 0.05, b[1], b[2] + 0.006 + 0.009 - 0.0005]);
    expectVerdict(w, true);
    place(w, 'waffle', [b[0] + 0.053, b[1], b[2] + 0.006 + 0.009 - 0.0005]);
    expectVerdict(w, false, /needs under 5\.2 cm/);
    const edge = inside(0.001);
    place(w, 'waffle_container', edge);
    place(w, 'waffle', [edge[0], edge[1], edge[2] + 0.006 + 0.009 - 0.0005]);
    expectVerdict(w, true);
    const out = inside(-0.002);
    place(w, 'waffle_container', out);
    place(w, 'waffle', [out[0], out[1], out[2] + 0.006 + 0.009 - 0.0005]);
    expectVerdict(w, false, /not wholly inside the microwave/);
  });

  it('StackBowlsCabinet: both bowls wholly inside the cabinet, one resting in the other', async () => {
    const w = await world('StackBowlsCabinet');
    expectVerdict(w, false, /not wholly inside the cabinet/);
    const c = pos(w, 'cabinet');
    const at: Vec3 = [c[0] - 0.06, c[1], 0.013];
    place(w, 'bowl2', at);
    place(w, 'bowl1', [at[0], at[1], at[2] + 0.006 - 0.0005]);
    expectVerdict(w, true);
    // Side by side on the cabinet floor: both inside, neither in the other.
    place(w, 'bowl1', [at[0], at[1] + 0.125, at[2]]);
    expectVerdict(w, false, /bowl1 is 12\.5 cm from the centre of bowl2 \(needs under 5\.0 cm\)/);
    place(w, 'bowl1', [at[0], at[1], at[2] + 0.006 - 0.0005]);
    place(w, 'bowl2', [c[0] - 0.16 - 0.05 + 0.074 - 0.002, c[1], 0.013]);
    expectVerdict(w, false, /bowl2 is not wholly inside the cabinet/);
  });

  it('ArrangeTea: mug and kettle on the tray within 0.7 × its radius, the cabinet closed', async () => {
    const w = await world('ArrangeTea');
    const t = pos(w, 'container');
    const hinge = w.sim.requireId('joint', 'cabinet_door_hinge');
    // Mug and kettle origins at their centres, resting on the tray's 6 mm floor.
    place(w, 'obj2', [t[0], t[1] - 0.055, 0.006 + 0.055 - 0.0005]);
    place(w, 'obj', [t[0], t[1] + 0.086, 0.006 + 0.045 - 0.0005]);
    expectVerdict(w, false, /needs at most 0\.5 %/);
    setJoint(w, 'cabinet_door_hinge', 0);
    expectVerdict(w, true);
    place(w, 'obj', [t[0], t[1] + 0.088, 0.006 + 0.045 - 0.0005]);
    expectVerdict(w, false, /obj is 8\.8 cm from the centre of container \(needs under 8\.7 cm\)/);
    place(w, 'obj', [t[0], t[1] + 0.05, 0.006 + 0.045 - 0.0005]);
    setJoint(w, 'cabinet_door_hinge', Math.sign(w.sim.model.jnt_range[2 * hinge] + w.sim.model.jnt_range[2 * hinge + 1]) * 1.75 * 0.006);
    expectVerdict(w, false, /needs at most 0\.5 %/);
  });

  it('SetUpCuttingStation: knife and meat on the board within 0.7 × its radius', async () => {
    const w = await world('SetUpCuttingStation');
    expectVerdict(w, false);
    const b = pos(w, 'receptacle');
    // The board's origin is the centre of its top; radius 0.158 m, so 11.1 cm.
    place(w, 'knife', [b[0], b[1] + 0.045, b[2] + 0.01 - 0.0005]);
    place(w, 'meat', [b[0] + 0.11, b[1], b[2] + 0.012 - 0.0005]);
    expectVerdict(w, true);
    place(w, 'meat', [b[0] + 0.112, b[1], b[2] + 0.012 - 0.0005]);
    expectVerdict(w, false, /meat is 11\.2 cm from the centre of receptacle \(needs under 11\.1 cm\)/);
    place(w, 'meat', [b[0], b[1] - 0.04, b[2] + 0.012 + 0.003]);
    expectVerdict(w, false, /meat .* does not touch it/);
  });

  it('CuttingToolSelection: the right tool on the board and the other not', async () => {
    const w = await world('CuttingToolSelection');
    const goal = w.goal as { tool: string };
    const wrong = goal.tool === 'knife' ? 'peeler' : 'knife';
    const b = pos(w, 'food_container');
    expectVerdict(w, false, new RegExp(`${goal.tool} is .* from the centre of food_container`));
    place(w, goal.tool, [b[0], b[1] - 0.045, b[2] + 0.01 - 0.0005]);
    expectVerdict(w, true);
    place(w, wrong, [b[0] + 0.06, b[1] - 0.045, b[2] + 0.011 - 0.0005]);
    expectVerdict(w, false, new RegExp(`the ${wrong} is on the cutting board too`));
  });

  it('CategorizeCondiments: each inside the cabinet within 15 cm of its counterpart', async () => {
    const w = await world('CategorizeCondiments');
    expectVerdict(w, false, /obj1 is not wholly inside the cabinet/);
    const b = pos(w, 'cab_obj1');
    const s = pos(w, 'cab_obj2');
    const toward = (p: Vec3, q: Vec3, d: number): Vec3 => {
      const l = Math.hypot(q[0] - p[0], q[1] - p[1]);
      return [p[0] + ((q[0] - p[0]) / l) * d, p[1] + ((q[1] - p[1]) / l) * d, 0];
    };
    const at = (p: Vec3, half: number): Vec3 => [p[0], p[1], 0.012 + half + 0.0005];
    place(w, 'obj1', at(toward(b, s, 0.149), 0.055));
    place(w, 'obj2', at(toward(s, b, 0.045), 0.04));
    expectVerdict(w, true);
    place(w, 'obj1', at(toward(b, s, 0.152), 0.055));
    expectVerdict(w, false, /obj1 is 15\.2 cm from cab_obj1 \(needs at most 15 cm\)/);
  });
});
