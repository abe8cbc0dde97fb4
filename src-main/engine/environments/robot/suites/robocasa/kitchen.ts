/**
 * The seeded kitchen generator: a layout (one wall, L, galley), a style (counter, cabinet and metal
 * materials, floor and wall, lighting) and the fixtures along the counters, each run's fixtures in a
 * drawn order with counter space between them, as RoboCasa lays out its kitchens.
 *
 * The robot's base is placed per task in front of the fixture the task needs (RoboCasa's
 * `init_robot_base_ref`): the kitchen is moved so that this fixture's front faces the robot, whose
 * base stands at the world origin at counter-top height, facing +x (see README, "The robot").
 *
 * Kitchens 0..49 are for development; 50..59 are the held-out kitchens (RoboCasa's target split has
 * ten), which no test that tunes anything uses.
 */
import type { Vec3 } from '../../robots/math3';
import { hashSeed, Rng } from '../../../../prng';
import { type Burner, coffeeMachine, dishwasher, microwave, sink, stove, toasterOven } from './appliances';
import { blender, electricKettle, fridge, standMixer, toaster } from './countertop';
import { drawerUnit, type Fixture, type FixtureKind, hingeCabinet, n, placeFixture, type Style, v3 } from './fixtures';

export type Layout = 'one-wall' | 'L' | 'galley';
export const LAYOUTS: readonly Layout[] = ['one-wall', 'L', 'galley'];

export const DEV_KITCHENS = 50;
export const HELD_OUT_KITCHENS = 10;
export const heldOutKitchen = (i: number): number => DEV_KITCHENS + (i % HELD_OUT_KITCHENS);
export const devKitchen = (i: number): number => i % DEV_KITCHENS;

/** The counter in front of the robot: its front edge and depth (world m, before the move). */
export const COUNTER_FRONT_X = 0.3;
export const COUNTER_DEPTH_M = 0.62;
/** How far behind the counter's front edge the microwave's front stands (m). */
const MICROWAVE_FRONT_M = 0.12;
const COUNTER_THICK = 0.04;
const GAP_M = 0.12;

interface StyleChoice extends Style {
  name: string;
  floor: [string, string];
  wall: string;
}

const STYLES: StyleChoice[] = [
  {
    name: 'white marble',
    counter: '0.92 0.91 0.88 1',
    cabinet: '0.95 0.95 0.93 1',
    metal: '0.72 0.74 0.77 1',
    accent: '0.55 0.42 0.3 1',
    floor: ['0.62 0.55 0.45', '0.55 0.48 0.38'],
    wall: '0.88 0.86 0.8 1',
  },
  {
    name: 'walnut',
    counter: '0.3 0.3 0.32 1',
    cabinet: '0.45 0.3 0.18 1',
    metal: '0.6 0.62 0.65 1',
    accent: '0.7 0.6 0.45 1',
    floor: ['0.35 0.33 0.3', '0.3 0.28 0.26'],
    wall: '0.78 0.74 0.66 1',
  },
  {
    name: 'sage',
    counter: '0.82 0.8 0.74 1',
    cabinet: '0.55 0.64 0.52 1',
    metal: '0.78 0.78 0.76 1',
    accent: '0.4 0.35 0.3 1',
    floor: ['0.7 0.7 0.68', '0.6 0.6 0.58'],
    wall: '0.93 0.92 0.88 1',
  },
  {
    name: 'navy',
    counter: '0.86 0.86 0.86 1',
    cabinet: '0.17 0.24 0.4 1',
    metal: '0.7 0.7 0.72 1',
    accent: '0.8 0.65 0.35 1',
    floor: ['0.5 0.44 0.36', '0.44 0.38 0.3'],
    wall: '0.9 0.9 0.92 1',
  },
  {
    name: 'industrial',
    counter: '0.5 0.5 0.5 1',
    cabinet: '0.25 0.26 0.28 1',
    metal: '0.82 0.83 0.85 1',
    accent: '0.75 0.3 0.15 1',
    floor: ['0.4 0.4 0.42', '0.34 0.34 0.36'],
    wall: '0.6 0.58 0.55 1',
  },
  {
    name: 'butcher block',
    counter: '0.7 0.52 0.32 1',
    cabinet: '0.9 0.88 0.82 1',
    metal: '0.65 0.66 0.7 1',
    accent: '0.3 0.45 0.6 1',
    floor: ['0.75 0.72 0.66', '0.68 0.64 0.58'],
    wall: '0.84 0.9 0.9 1',
  },
];

/** Every kitchen has one of each along its main wall, so every task loads in every kitchen. */
const MAIN_KINDS: readonly MainKind[] = ['sink', 'stove', 'microwave', 'coffee_machine', 'cabinet', 'drawer', 'toaster_oven', 'dishwasher'];
export type MainKind = Exclude<FixtureKind, 'counter'>;
/** Fixtures a kitchen has only when a task asks for one (RoboCasa's `enable_fixtures`), so the others' kitchens stay as they were. */
export const ON_REQUEST: readonly MainKind[] = ['fridge', 'electric_kettle', 'blender', 'stand_mixer', 'toaster'];
/** Small appliances stand this far behind the counter's front edge, within the hand's reach. */
const SMALL_FRONT_M = 0.1;

export interface KitchenSpec {
  id: number;
  layout: Layout;
  style: StyleChoice;
  lightDiffuse: number;
  lightDir: Vec3;
  /** Fixture kinds along the main wall, in order. */
  main: MainKind[];
  /** Extra cabinets and drawer units on the second run (L: at the main run's end; galley: across the aisle). */
  second: ('cabinet' | 'drawer')[];
  hingeLeft: boolean;
}

/** The kitchen with this id: its layout, style and fixture order (a pure function of the id). */
export function kitchenSpec(id: number): KitchenSpec {
  if (!Number.isInteger(id) || id < 0 || id >= DEV_KITCHENS + HELD_OUT_KITCHENS)
    throw new Error(`kitchen id must be an integer 0..${DEV_KITCHENS + HELD_OUT_KITCHENS - 1}, got ${id}`);
  const rng = new Rng(hashSeed('robocasa-kitchen', id));
  const layout = LAYOUTS[id % LAYOUTS.length];
  const main = rng.shuffle([...MAIN_KINDS]);
  const second: ('cabinet' | 'drawer')[] = layout === 'one-wall' ? [] : rng.shuffle(['cabinet', 'drawer', rng.pick(['cabinet', 'drawer'] as const)]);
  return {
    id,
    layout,
    style: rng.pick(STYLES),
    lightDiffuse: rng.uniform(0.55, 0.95),
    lightDir: [rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4), -1],
    main,
    second,
    hingeLeft: rng.next() < 0.5,
  };
}

/** Initial fixture state a task asks for: door/drawer openings 0..1, knob angles, the faucet handle. */
export interface FixtureSetup {
  open?: Partial<Record<'drawer' | 'cabinet' | 'microwave' | 'toaster_oven' | 'dishwasher' | 'fridge' | 'electric_kettle' | 'stand_mixer', number>>;
  rack?: number;
  knobs?: Partial<Record<Burner, number>>;
  sinkHandle?: number;
}

export interface PlacedFixture {
  fixture: Fixture;
  /** World pose of the fixture frame. */
  pos: Vec3;
  yaw: number;
}

export interface Kitchen {
  spec: KitchenSpec;
  fixtures: PlacedFixture[];
  /** `<asset>` children (materials, textures) the kitchen uses. */
  assets: string;
  /** MJCF of the counters, walls, floor, light and fixtures (goes into the robot's worldbody). */
  xml: string;
  contact: string;
  /** Fixture joint values in body order (appended to the home keyframe before the objects'). */
  qpos: number[];
  /** World position of a point given in a fixture's frame. */
  toWorld(fixture: string, p: Vec3): Vec3;
  fixture(name: string): PlacedFixture;
}

function build(kind: MainKind, name: string, spec: KitchenSpec, s: FixtureSetup): Fixture {
  const st = spec.style;
  const o = s.open ?? {};
  const main = name === kind;
  switch (kind) {
    case 'sink':
      return sink(name, st, COUNTER_DEPTH_M, s.sinkHandle ?? 0);
    case 'stove':
      return stove(name, st, s.knobs ?? {});
    case 'microwave':
      return microwave(name, st, o.microwave ?? 0);
    case 'coffee_machine':
      return coffeeMachine(name, st);
    case 'cabinet':
      return hingeCabinet(name, st, spec.hingeLeft, main ? (o.cabinet ?? 0) : 0);
    case 'drawer':
      return drawerUnit(name, st, main ? (o.drawer ?? 0) : 0);
    case 'toaster_oven':
      return toasterOven(name, st, o.toaster_oven ?? 0);
    case 'dishwasher':
      return dishwasher(name, st, o.dishwasher ?? 0, s.rack ?? 0);
    case 'fridge':
      return fridge(name, st, !spec.hingeLeft, o.fridge ?? 0);
    case 'electric_kettle':
      return electricKettle(name, st, o.electric_kettle ?? 0);
    case 'blender':
      return blender(name, st);
    case 'stand_mixer':
      return standMixer(name, st, o.stand_mixer ?? 0);
    case 'toaster':
      return toaster(name, st);
  }
}

const quatZ = (yaw: number): number[] => [Math.cos(yaw / 2), 0, 0, Math.sin(yaw / 2)];

/** A counter slab (top at z = 0) with the cabinet front below it; centre (x, y), size along its run. */
function counterXml(name: string, x: number, y: number, yaw: number, lenM: number): string {
  return `<body name="${name}" pos="${v3([x, y, 0])}" quat="${v3(quatZ(yaw))}">
      <geom name="${name}_top" class="object" type="box" size="${n(COUNTER_DEPTH_M / 2)} ${n(lenM / 2)} ${n(COUNTER_THICK / 2)}" pos="0 0 ${n(-COUNTER_THICK / 2)}" material="kitchen_counter"/>
      <geom type="box" size="${n(COUNTER_DEPTH_M / 2 - 0.03)} ${n(lenM / 2)} 0.42" pos="0.03 0 -0.46" material="kitchen_cabinet" contype="0" conaffinity="0"/>
    </body>`;
}

/**
 * Builds kitchen `id` with the fixture state `setup`, moved so that the main-wall fixture `target`
 * stands in front of the robot, shifted by `offsetY` along the counter (RoboCasa's spawn deviation).
 */
export function buildKitchen(
  id: number,
  target: MainKind,
  setup: FixtureSetup = {},
  offsetY = 0,
  beside?: MainKind,
  besideSide?: 'left' | 'right',
  enable: readonly MainKind[] = [],
): Kitchen {
  const spec = kitchenSpec(id);
  // An on-request fixture joins the main run at a place fixed by the kitchen id (no draw, so the
  // kitchen's other choices stay as they are); `enable` adds more (RoboCasa's `enable_fixtures`).
  for (const k of [target, beside, ...enable])
    if (k && ON_REQUEST.includes(k) && !spec.main.includes(k)) spec.main.splice(1 + (id % (spec.main.length - 1)), 0, k);
  // A task that works two fixtures has them side by side, the second (`beside`) on the side away
  // from the first's door hinge unless the task names a side, and the robot in front of the pair
  // (RoboCasa picks a fixture near the first with `ref=`).
  if (beside) {
    const order = spec.main.filter((k) => k !== beside);
    const i = order.indexOf(target);
    const after = besideSide ? besideSide === 'left' : !spec.hingeLeft;
    order.splice(after ? i + 1 : i, 0, beside);
    spec.main = order;
  }
  const st = spec.style;
  const back = COUNTER_FRONT_X + COUNTER_DEPTH_M;
  // The microwave stands forward on the counter, so that the hand, pointing down, reaches behind its door's plane.
  const depthOf = (f: Fixture): number =>
    f.kind === 'sink'
      ? COUNTER_DEPTH_M / 2
      : f.kind === 'microwave'
        ? MICROWAVE_FRONT_M + f.depthM / 2
        : f.kind === 'stand_mixer'
          ? 0.02 + f.depthM / 2
          : ON_REQUEST.includes(f.kind as MainKind) && f.kind !== 'fridge'
            ? SMALL_FRONT_M + f.depthM / 2
            : COUNTER_DEPTH_M - f.depthM / 2 - 0.03;
  // Main run along +y in kitchen coordinates, then shifted so the target sits at y = offsetY.
  const main: { f: Fixture; s: number }[] = [];
  let s = 0.4;
  spec.main.forEach((k, i) => {
    const f = build(k, k, spec, setup);
    main.push({ f, s: s + f.widthM / 2 });
    const next = spec.main[i + 1];
    const paired = beside !== undefined && [k, next].includes(beside) && [k, next].includes(target);
    s += f.widthM + (paired ? GAP_M : GAP_M + 0.28);
  });
  const runLen = s + 0.2;
  const t = main.find((m) => m.f.name === target);
  if (!t) throw new Error(`kitchen ${id} has no ${target}`);
  const pair = beside ? main.find((m) => m.f.name === beside) : undefined;
  const dy = offsetY - (pair ? (t.s + pair.s) / 2 : t.s);
  const placed: PlacedFixture[] = main.map(({ f, s: sf }) => ({ fixture: f, pos: [COUNTER_FRONT_X + depthOf(f), sf + dy, 0], yaw: 0 }));
  const parts: string[] = [];
  const sinkAt = main.find((m) => m.f.kind === 'sink') as { f: Fixture; s: number };
  const pieces: [number, number][] = [
    [0, sinkAt.s - sinkAt.f.widthM / 2],
    [sinkAt.s + sinkAt.f.widthM / 2, runLen],
  ];
  pieces.forEach(([a, b], i) => {
    if (b - a > 0.01) parts.push(counterXml(`counter_main_${i}`, COUNTER_FRONT_X + COUNTER_DEPTH_M / 2, (a + b) / 2 + dy, 0, b - a));
  });
  parts.push(
    `<geom name="kitchen_wall_main" type="box" size="0.02 ${n(runLen / 2)} 1" pos="${v3([back + 0.02, runLen / 2 + dy, 0.1])}" material="kitchen_wall" contype="0" conaffinity="0"/>`,
  );
  // The second run: extra cabinets and drawer units with counter space.
  if (spec.second.length) {
    let s2 = 0.45;
    const items: { f: Fixture; s: number }[] = [];
    const count: Record<string, number> = {};
    for (const k of spec.second) {
      count[k] = (count[k] ?? 1) + 1;
      const f = build(k, `${k}_${count[k]}`, spec, setup);
      items.push({ f, s: s2 + f.widthM / 2 });
      s2 += f.widthM + 0.3;
    }
    const len2 = s2 + 0.2;
    if (spec.layout === 'L') {
      // Along -x from the main wall at the main run's +y end, fronts facing -y.
      const y0 = runLen + dy;
      const yFront = y0 + COUNTER_FRONT_X - 0.3;
      for (const it of items) placed.push({ fixture: it.f, pos: [back - it.s, yFront + depthOf(it.f), 0], yaw: Math.PI / 2 });
      parts.push(counterXml('counter_second', back - len2 / 2, yFront + COUNTER_DEPTH_M / 2, Math.PI / 2, len2));
    } else {
      // Across a 1.4 m aisle behind the robot, fronts facing +x.
      const xFront = -1.4;
      for (const it of items) placed.push({ fixture: it.f, pos: [xFront - depthOf(it.f), it.s + dy + 0.6, 0], yaw: Math.PI });
      parts.push(counterXml('counter_second', xFront - COUNTER_DEPTH_M / 2, len2 / 2 + dy + 0.6, Math.PI, len2));
    }
  }
  for (const p of placed) parts.push(placeFixture(p.fixture, p.pos[0], p.pos[1], p.pos[2], p.yaw));
  const assets = `<texture name="kitchen_floor_tex" type="2d" builtin="checker" rgb1="${st.floor[0]}" rgb2="${st.floor[1]}" width="256" height="256"/>
    <material name="kitchen_floor" texture="kitchen_floor_tex" texrepeat="10 10" rgba="1 1 1 1"/>
    <material name="kitchen_counter" rgba="${st.counter}"/>
    <material name="kitchen_cabinet" rgba="${st.cabinet}"/>
    <material name="kitchen_wall" rgba="${st.wall}"/>`;
  const d = spec.lightDiffuse;
  const xml = `<light name="kitchen_light" pos="0.5 0 2.4" dir="${v3(spec.lightDir)}" directional="true" castshadow="false" diffuse="${v3([d, d, d * 0.95])}"/>
    <geom name="kitchen_floor" type="plane" size="6 6 0.1" pos="0 0 -0.9" material="kitchen_floor" contype="1" conaffinity="3"/>
    <geom name="robot_stand" type="box" size="0.16 0.16 0.45" pos="0 0 -0.45" rgba="0.25 0.26 0.3 1" contype="0" conaffinity="0"/>
    ${parts.join('\n    ')}`;
  const byName = new Map(placed.map((p) => [p.fixture.name, p]));
  const fixture = (name: string): PlacedFixture => {
    const pf = byName.get(name);
    if (!pf) throw new Error(`no fixture "${name}" in kitchen ${id} (fixtures: ${[...byName.keys()].join(', ')})`);
    return pf;
  };
  return {
    spec,
    fixtures: placed,
    assets,
    xml,
    contact: placed.map((p) => p.fixture.contact).join(''),
    qpos: placed.flatMap((p) => p.fixture.qpos),
    fixture,
    toWorld(name, p) {
      const pf = fixture(name);
      const c = Math.cos(pf.yaw);
      const sn = Math.sin(pf.yaw);
      return [pf.pos[0] + c * p[0] - sn * p[1], pf.pos[1] + sn * p[0] + c * p[1], pf.pos[2] + p[2]];
    },
  };
}
