/**
 * The kitchen's fixture state on a live Sim: RoboCasa's normalised joint values, its on/off rules
 * (stove burner, sink water, spout orientation) and the appliances whose state is latched by a
 * button press (microwave, coffee machine), updated every step as RoboCasa's `update_state` is.
 */
import type { Vec3 } from '../../robots/math3';
import type { Sim } from '../../../../sim/sim';
import type { FixtureJoint, Region } from './fixtures';
import type { Kitchen, PlacedFixture } from './kitchen';
import { KETTLE_ON_TH, MIXER_HEAD_OPEN_TH, TOASTER_ON_TH } from './countertop';

/** RoboCasa's blender: the lid is on within 0.04 m of its closed place and upright within 7°. */
export const BLENDER_LID_POS_M = 0.04;
export const BLENDER_LID_UPRIGHT_DEG = 7;
/** The blender lid's body (a task object, RoboCasa's auxiliary fixture with a free joint). */
export const BLENDER_LID = 'blender_lid';

/** RoboCasa's toaster stays on for 500 of its control steps (20 Hz), then turns off and lets the lever up. */
export const TOASTER_ON_SEC = 25;

/** A button counts as pressed once pushed in past this fraction of its travel. */
export const BUTTON_PRESSED_FRACTION = 0.6;
/** RoboCasa: a burner is on for 0.35 ≤ |knob angle| ≤ 2π − 0.35. */
export const BURNER_ON_RAD = 0.35;
/** RoboCasa: the water runs for 0.40 < handle angle < π. */
export const WATER_ON_RAD = 0.4;
/** RoboCasa's `is_open` / `is_closed` thresholds on normalised door joints. */
export const DOOR_OPEN_TH = 0.9;
export const DOOR_CLOSED_TH = 0.005;

interface Latches {
  microwaveOn: boolean;
  coffeeOn: boolean;
  kettleOn?: boolean;
  toasterOn?: boolean;
  /** Sim time the toaster latched on (it pops up `TOASTER_ON_SEC` later). */
  toasterOnAtSec?: number;
  /** The toast is done and the lever not yet back up past the threshold: it cannot start again until it is. */
  toasterPopping?: boolean;
  /** Spout orientations (left, center, right) seen with the water on (RinseSinkBasin's `washed_loc`). */
  rinsed: [boolean, boolean, boolean];
}

const SPOUT_ORIENTATIONS = ['left', 'center', 'right'] as const;

export interface FixtureReport {
  name: string;
  kind: string;
  /** Normalised joint values (0 closed / off … 1 fully open / on end of the range). */
  joints: Record<string, number>;
  /** Appliance state in words, as RoboCasa's get_state reports it. */
  status: Record<string, boolean | string | number>;
  /** Interior regions in world coordinates (centre and full size), where objects go inside. */
  interiors: { center: Vec3; sizeM: Vec3 }[];
}

export class KitchenRuntime {
  private sim: Sim | null = null;
  private qadr = new Map<string, number>();
  private leverDof: number | undefined;
  private latches: Latches = { microwaveOn: false, coffeeOn: false, rinsed: [false, false, false] };

  constructor(readonly kitchen: Kitchen) {}

  /** Binds to the loaded Sim: joint addresses, the per-step latch update, snapshot state. */
  bind(sim: Sim): void {
    this.sim = sim;
    const adr = sim.model.jnt_qposadr as Int32Array;
    for (const pf of this.kitchen.fixtures) for (const j of pf.fixture.joints) this.qadr.set(j.joint, adr[sim.requireId('joint', j.joint)]);
    sim.addController(() => this.update());
    sim.addStateProvider({
      key: 'kitchen',
      save: () => ({ ...this.latches, rinsed: [...this.latches.rinsed] }),
      load: (v) => {
        const l = v as Latches;
        this.latches = { ...l, rinsed: [...(l.rinsed ?? [false, false, false])] as Latches['rinsed'] };
      },
    });
  }

  private live(): Sim {
    if (!this.sim) throw new Error('KitchenRuntime: not bound to a Sim');
    return this.sim;
  }

  fixture(name: string): PlacedFixture {
    return this.kitchen.fixture(name);
  }

  jointOf(fixture: string, label: string): FixtureJoint {
    const j = this.fixture(fixture).fixture.joints.find((x) => x.label === label);
    if (!j) throw new Error(`fixture ${fixture} has no joint "${label}"`);
    return j;
  }

  /** Raw joint value (rad or m). */
  q(fixture: string, label: string): number {
    const j = this.jointOf(fixture, label);
    return (this.live().data.qpos as Float64Array)[this.qadr.get(j.joint) as number];
  }

  /** RoboCasa's normalised joint value: 0 at the closed end, 1 at the open end, clipped. */
  norm(fixture: string, label: string): number {
    const j = this.jointOf(fixture, label);
    const v = (this.q(fixture, label) - j.closedQ) / (j.openQ - j.closedQ);
    return Math.min(1, Math.max(0, v));
  }

  has(fixture: string): boolean {
    return this.kitchen.fixtures.some((p) => p.fixture.name === fixture);
  }

  pressed(fixture: string, button: string): boolean {
    return this.has(fixture) && this.norm(fixture, button) >= BUTTON_PRESSED_FRACTION;
  }

  burnerOn(burner: string): boolean {
    const a = Math.abs(this.q('stove', burner));
    return a >= BURNER_ON_RAD && a <= 2 * Math.PI - BURNER_ON_RAD;
  }

  waterOn(): boolean {
    const q = this.q('sink', 'handle');
    return q > WATER_ON_RAD && q < Math.PI;
  }

  /** RoboCasa: the spout's third of its range, left / center / right (seen from the robot). */
  spoutOrientation(): 'left' | 'center' | 'right' {
    const r = this.norm('sink', 'spout');
    return r > 2 / 3 ? 'left' : r < 1 / 3 ? 'right' : 'center';
  }

  isOpen(fixture: string, label = 'door', th = DOOR_OPEN_TH): boolean {
    return this.norm(fixture, label) >= th;
  }

  isClosed(fixture: string, label = 'door', th = DOOR_CLOSED_TH): boolean {
    return this.norm(fixture, label) <= th;
  }

  get microwaveOn(): boolean {
    return this.latches.microwaveOn;
  }

  get coffeeOn(): boolean {
    return this.latches.coffeeOn;
  }

  /** RoboCasa's ElectricKettle `turned_on`: latched once the switch reaches 0.95 of its travel. */
  get kettleOn(): boolean {
    return this.latches.kettleOn === true;
  }

  /** RoboCasa's Toaster `turned_on`: latched once the lever reaches 0.90 of its travel, for `TOASTER_ON_SEC`; then the lever pops up. */
  get toasterOn(): boolean {
    return this.latches.toasterOn === true;
  }

  /** RoboCasa's Blender `lid_on_blender`: the lid's origin within 0.04 m of its closed place, roll and pitch each under 7°. */
  lidOnBlender(): { on: boolean; distM: number; tiltDeg: number } {
    const sim = this.live();
    if (!this.has('blender') || !sim.names('body').includes(BLENDER_LID)) return { on: false, distM: Infinity, tiltDeg: 0 };
    const id = sim.requireId('body', BLENDER_LID);
    const x = sim.data.xpos as Float64Array;
    const c = this.kitchen.toWorld('blender', this.fixture('blender').fixture.sites.lid_closed);
    const distM = Math.hypot(x[3 * id] - c[0], x[3 * id + 1] - c[1], x[3 * id + 2] - c[2]);
    const m = (sim.data.xmat as Float64Array).subarray(9 * id, 9 * id + 9);
    const deg = 180 / Math.PI;
    const roll = Math.abs(Math.atan2(m[7], m[8])) * deg;
    const pitch = Math.abs(Math.asin(Math.max(-1, Math.min(1, -m[6])))) * deg;
    const tiltDeg = Math.max(roll, pitch);
    return { on: distM < BLENDER_LID_POS_M && tiltDeg < BLENDER_LID_UPRIGHT_DEG, distM, tiltDeg };
  }

  /** The spout orientations the running water has reached so far (RoboCasa's RinseSinkBasin, checked every step). */
  get rinsed(): Record<(typeof SPOUT_ORIENTATIONS)[number], boolean> {
    const r = this.latches.rinsed;
    return { left: r[0], center: r[1], right: r[2] };
  }

  /** RoboCasa's Microwave / CoffeeMachine `update_state`, run after every step. */
  private update(): void {
    if (this.has('microwave')) {
      if (this.isOpen('microwave')) this.latches.microwaveOn = false;
      else if (this.latches.microwaveOn && this.pressed('microwave', 'stop_button')) this.latches.microwaveOn = false;
      else if (!this.latches.microwaveOn && this.pressed('microwave', 'start_button')) this.latches.microwaveOn = true;
    }
    if (this.has('coffee_machine') && !this.latches.coffeeOn && this.pressed('coffee_machine', 'start_button')) this.latches.coffeeOn = true;
    if (this.has('electric_kettle') && !this.latches.kettleOn && this.norm('electric_kettle', 'switch') >= KETTLE_ON_TH) this.latches.kettleOn = true;
    if (this.has('toaster')) {
      const t = this.live().data.time;
      const down = this.norm('toaster', 'lever') >= TOASTER_ON_TH;
      if (this.latches.toasterPopping && !down) this.latches.toasterPopping = false;
      if (!this.latches.toasterOn && !this.latches.toasterPopping && down) {
        this.latches.toasterOn = true;
        this.latches.toasterOnAtSec = t;
      } else if (this.latches.toasterOn && t - (this.latches.toasterOnAtSec ?? t) >= TOASTER_ON_SEC) {
        // Done: let the lever go; its spring pops it up (a lever still down then does not start it again).
        this.latches.toasterOn = false;
        this.latches.toasterPopping = true;
      }
      if (this.latches.toasterOn) this.holdLever();
    }
    if (this.has('sink') && this.waterOn()) this.latches.rinsed[SPOUT_ORIENTATIONS.indexOf(this.spoutOrientation())] = true;
  }

  /** While the toaster is on its lever stays down (RoboCasa's `set_lever(1.0)` every step until the toast is done). */
  private holdLever(): void {
    const sim = this.live();
    const j = this.jointOf('toaster', 'lever');
    this.leverDof ??= (sim.model.jnt_dofadr as Int32Array)[sim.requireId('joint', j.joint)];
    (sim.data.qpos as Float64Array)[this.qadr.get(j.joint) as number] = j.openQ;
    (sim.data.qvel as Float64Array)[this.leverDof] = 0;
  }

  /** World-frame box of an interior region: its centre and full size (axis-aligned in the fixture's yaw). */
  regionWorld(pf: PlacedFixture, r: Region): { center: Vec3; sizeM: Vec3 } {
    const sim = this.live();
    const id = sim.requireId('body', r.body);
    const x = sim.data.xpos as Float64Array;
    const m = (sim.data.xmat as Float64Array).subarray(9 * id, 9 * id + 9);
    const c: Vec3 = [(r.lo[0] + r.hi[0]) / 2, (r.lo[1] + r.hi[1]) / 2, (r.lo[2] + r.hi[2]) / 2];
    const w: Vec3 = [
      x[3 * id] + m[0] * c[0] + m[1] * c[1] + m[2] * c[2],
      x[3 * id + 1] + m[3] * c[0] + m[4] * c[1] + m[5] * c[2],
      x[3 * id + 2] + m[6] * c[0] + m[7] * c[1] + m[8] * c[2],
    ];
    void pf;
    return { center: w, sizeM: [r.hi[0] - r.lo[0], r.hi[1] - r.lo[1], r.hi[2] - r.lo[2]] };
  }

  /** Whether a world point lies in a region (RoboCasa's interior boxes, widened by `marginM`). */
  inRegion(r: Region, p: Vec3, marginM = 0): boolean {
    const sim = this.live();
    const id = sim.requireId('body', r.body);
    const x = sim.data.xpos as Float64Array;
    const m = (sim.data.xmat as Float64Array).subarray(9 * id, 9 * id + 9);
    const d = [p[0] - x[3 * id], p[1] - x[3 * id + 1], p[2] - x[3 * id + 2]];
    const l = [m[0] * d[0] + m[3] * d[1] + m[6] * d[2], m[1] * d[0] + m[4] * d[1] + m[7] * d[2], m[2] * d[0] + m[5] * d[1] + m[8] * d[2]];
    return l.every((v, i) => v >= r.lo[i] - marginM && v <= r.hi[i] + marginM);
  }

  /** Every fixture's state for the `state` primitive. */
  report(): FixtureReport[] {
    const r4 = (v: number): number => Number(v.toFixed(4));
    return this.kitchen.fixtures.map((pf) => {
      const f = pf.fixture;
      const joints = Object.fromEntries(f.joints.map((j) => [j.label, r4(this.norm(f.name, j.label))]));
      const status: Record<string, boolean | string | number> = {};
      if (f.kind === 'microwave') status.turned_on = this.microwaveOn;
      if (f.kind === 'coffee_machine') status.turned_on = this.coffeeOn;
      if (f.kind === 'stove') for (const j of f.joints) status[`${j.label}_burner_on`] = this.burnerOn(j.label);
      if (f.kind === 'sink') {
        status.water_on = this.waterOn();
        status.spout = this.spoutOrientation();
      }
      if (f.kind === 'electric_kettle') status.turned_on = this.kettleOn;
      if (f.kind === 'toaster') status.turned_on = this.toasterOn;
      if (f.kind === 'blender') status.lid_on_blender = this.lidOnBlender().on;
      if (f.kind === 'toaster_oven') status.timer = r4(this.norm(f.name, 'timer'));
      for (const j of f.joints) if (j.role === 'door' || j.role === 'flap' || j.role === 'drawer') status[`${j.label}_open`] = this.isOpen(f.name, j.label);
      // RoboCasa's stand mixer head counts as open above 0.99 (its doors at 0.90).
      if (f.kind === 'stand_mixer') status.head_open = this.norm(f.name, 'head') > MIXER_HEAD_OPEN_TH;
      return {
        name: f.name,
        kind: f.kind,
        joints,
        status,
        interiors: f.interiors.map((r) => this.regionWorld(pf, r)).map((b) => ({ center: b.center.map(r4) as Vec3, sizeM: b.sizeM.map(r4) as Vec3 })),
      };
    });
  }
}
