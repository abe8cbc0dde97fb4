/**
 * Kitchen objects from primitives, sized for the parallel gripper (≤ 6 cm across where it is
 * gripped): RoboCasa's object groups (mug, pan, bowl, plate, food, utensil, …) by a few of each.
 * Each body's origin is its centre, except receptacles (bowl, plate, pan), whose origin is the
 * centre of their floor, as `find` reports it.
 */
import type { SceneObject } from '../../tasks/objects';
import type { Vec3 } from '../../robots/math3';
import type { Rng } from '../../../../prng';
import { n, v3 } from './fixtures';

export interface KitchenObject extends SceneObject {
  name: string;
  /** RoboCasa's object group ("mug", "food", …) and the words an instruction uses for it. */
  group: string;
  words: string;
  /** Half height of the body above its origin's resting height (for placing). */
  restZ: number;
  /** Horizontal radius (RoboCasa's `horizontal_radius`: receptacle thresholds are 0.7 × it). */
  radiusM: number;
  sizeM: Vec3;
}

const free = (name: string, pos: Vec3, yaw: number, geoms: string): { xml: string; qpos: number[] } => {
  const q = [Math.cos(yaw / 2), 0, 0, Math.sin(yaw / 2)];
  return { xml: `<body name="${name}" pos="${v3(pos)}" quat="${v3(q)}"><freejoint name="${name}_free"/>${geoms}</body>`, qpos: [...pos, ...q] };
};

const g = (type: string, size: number[], pos: Vec3, rgba: string, extra = ''): string =>
  `<geom class="object" type="${type}" size="${size.map(n).join(' ')}" pos="${v3(pos)}" rgba="${rgba}" ${extra}/>`;

export function make(
  name: string,
  group: string,
  words: string,
  kind: string,
  sizeM: Vec3,
  radiusM: number,
  restZ: number,
  pos: Vec3,
  yaw: number,
  geoms: string,
): KitchenObject {
  const f = free(name, [pos[0], pos[1], pos[2] + restZ], yaw, geoms);
  return { name, group, words, restZ, radiusM, sizeM, xml: f.xml, qpos: f.qpos, infos: [{ name, kind, colour: '', description: words, sizeM, movable: true }] };
}

/** A mug: a cylinder (gripped across it) with a handle. */
export function mug(name: string, pos: Vec3, yaw: number, rgba = '0.85 0.85 0.8 1'): KitchenObject {
  const geoms = `${g('cylinder', [0.03, 0.045], [0, 0, 0], rgba)}${g('box', [0.015, 0.005, 0.025], [0.04, 0, 0.005], rgba)}`;
  return make(name, 'mug', 'mug', 'mug', [0.08, 0.06, 0.09], 0.03, 0.045, pos, yaw, geoms);
}

/** A receptacle whose origin is the centre of its floor: a disc with a ring of wall boxes. */
export function receptacle(
  name: string,
  group: string,
  words: string,
  r: number,
  wallH: number,
  rgba: string,
  pos: Vec3,
  massKg: number,
  handle = false,
): KitchenObject {
  const k = 14;
  const seg = (2 * Math.PI * r) / k / 2 + 0.003;
  const walls = Array.from({ length: k }, (_, i) => {
    const a = (2 * Math.PI * i) / k;
    return `<geom class="object" type="box" size="0.004 ${n(seg)} ${n(wallH / 2)}" pos="${v3([r * Math.cos(a), r * Math.sin(a), wallH / 2])}" euler="0 0 ${n(a)}" rgba="${rgba}" mass="${n(massKg / (2 * k))}"/>`;
  }).join('');
  const floor = `<geom class="object" type="cylinder" size="${n(r + 0.004)} 0.003" pos="0 0 0.003" rgba="${rgba}" mass="${n(massKg / 2)}"/>`;
  const grip = handle ? g('box', [0.06, 0.012, 0.008], [-(r + 0.06), 0, wallH - 0.008], '0.15 0.15 0.15 1', `mass="${n(massKg / 4)}"`) : '';
  const f = free(name, pos, 0, floor + walls + grip);
  return {
    name,
    group,
    words,
    restZ: 0,
    radiusM: r + 0.004,
    sizeM: [2 * r + 0.008, 2 * r + 0.008, wallH],
    xml: f.xml,
    qpos: f.qpos,
    infos: [{ name, kind: group, colour: '', description: words, sizeM: [2 * r + 0.008, 2 * r + 0.008, wallH], movable: true }],
  };
}

export const bowl = (name: string, pos: Vec3, r = 0.07, rgba = '0.9 0.9 0.92 1'): KitchenObject => receptacle(name, 'bowl', 'bowl', r, 0.045, rgba, pos, 0.25);
export const plate = (name: string, pos: Vec3, r = 0.09, rgba = '0.95 0.95 0.95 1'): KitchenObject =>
  receptacle(name, 'plate', 'plate', r, 0.014, rgba, pos, 0.3);
/** A round serving tray: a wide disc with a low rim. */
export const tray = (name: string, pos: Vec3, r = 0.12): KitchenObject => receptacle(name, 'tray', 'tray', r, 0.012, '0.55 0.38 0.22 1', pos, 0.4);
/** A pan with a handle on its −x side: too wide to grip across, so it stays where it is put. */
export const pan = (name: string, pos: Vec3): KitchenObject => receptacle(name, 'pan', 'pan', 0.1, 0.035, '0.2 0.2 0.22 1', pos, 0.8, true);

interface FoodDef {
  words: string;
  shape: 'sphere' | 'box' | 'capsule' | 'cylinder';
  size: number[];
  rgba: string;
  restZ: number;
  sizeM: Vec3;
}

/** RoboCasa's food group by a handful of its members. */
export const FOODS: Record<string, FoodDef> = {
  apple: { words: 'apple', shape: 'sphere', size: [0.032], rgba: '0.8 0.1 0.1 1', restZ: 0.032, sizeM: [0.064, 0.064, 0.064] },
  lemon: { words: 'lemon', shape: 'sphere', size: [0.028], rgba: '0.95 0.85 0.2 1', restZ: 0.028, sizeM: [0.056, 0.056, 0.056] },
  orange: { words: 'orange', shape: 'sphere', size: [0.031], rgba: '0.95 0.55 0.1 1', restZ: 0.031, sizeM: [0.062, 0.062, 0.062] },
  bread: { words: 'bread', shape: 'box', size: [0.05, 0.028, 0.025], rgba: '0.85 0.65 0.35 1', restZ: 0.025, sizeM: [0.1, 0.056, 0.05] },
  cheese: { words: 'cheese', shape: 'box', size: [0.035, 0.025, 0.02], rgba: '0.98 0.85 0.35 1', restZ: 0.02, sizeM: [0.07, 0.05, 0.04] },
  carrot: { words: 'carrot', shape: 'capsule', size: [0.018, 0.045], rgba: '0.95 0.45 0.1 1', restZ: 0.018, sizeM: [0.126, 0.036, 0.036] },
  butter: { words: 'butter', shape: 'box', size: [0.032, 0.022, 0.018], rgba: '0.98 0.93 0.6 1', restZ: 0.018, sizeM: [0.064, 0.044, 0.036] },
  tofu: { words: 'tofu', shape: 'box', size: [0.03, 0.026, 0.022], rgba: '0.96 0.95 0.88 1', restZ: 0.022, sizeM: [0.06, 0.052, 0.044] },
  steak: { words: 'steak', shape: 'box', size: [0.055, 0.028, 0.012], rgba: '0.55 0.15 0.12 1', restZ: 0.012, sizeM: [0.11, 0.056, 0.024] },
};

export function food(name: string, kind: keyof typeof FOODS, pos: Vec3, yaw: number): KitchenObject {
  const f = FOODS[kind];
  const euler = f.shape === 'capsule' ? 'euler="0 1.5708 0"' : '';
  return make(
    name,
    'food',
    f.words,
    String(kind),
    f.sizeM,
    Math.max(f.sizeM[0], f.sizeM[1]) / 2,
    f.restZ,
    pos,
    yaw,
    g(f.shape, f.size, [0, 0, 0], f.rgba, euler),
  );
}

/** RoboCasa's tool/utensil group by a few flat ones that lie on their side and are gripped across. */
export const UTENSILS: Record<string, { words: string; size: Vec3; rgba: string }> = {
  spatula: { words: 'spatula', size: [0.11, 0.02, 0.012], rgba: '0.2 0.2 0.22 1' },
  ladle: { words: 'ladle', size: [0.1, 0.022, 0.014], rgba: '0.75 0.75 0.78 1' },
  whisk: { words: 'whisk', size: [0.1, 0.018, 0.016], rgba: '0.8 0.8 0.82 1' },
};

export function utensil(name: string, kind: keyof typeof UTENSILS, pos: Vec3, yaw: number): KitchenObject {
  const u = UTENSILS[kind];
  const sizeM: Vec3 = [2 * u.size[0], 2 * u.size[1], 2 * u.size[2]];
  return make(name, 'utensil', u.words, String(kind), sizeM, u.size[0], u.size[2], pos, yaw, g('box', u.size, [0, 0, 0], u.rgba));
}

/** A distractor from any group, drawn from the seeded stream. */
export function distractor(rng: Rng, name: string, pos: Vec3): KitchenObject {
  const keys = Object.keys(FOODS);
  return food(name, rng.pick(keys) as keyof typeof FOODS, pos, rng.uniform(-1, 1));
}

/** A stovetop kettle: a body gripped across (7 cm), a spout and a handle on top. */
export function kettle(name: string, pos: Vec3, yaw: number): KitchenObject {
  const c = '0.7 0.72 0.75 1';
  const geoms = `${g('cylinder', [0.035, 0.055], [0, 0, 0], c)}${g('box', [0.03, 0.006, 0.006], [0.05, 0, 0.02], c, 'euler="0 -0.6 0"')}${g('box', [0.004, 0.02, 0.004], [0, 0, 0.065], '0.15 0.15 0.15 1')}`;
  return make(name, 'kettle', 'kettle', 'kettle', [0.07, 0.07, 0.11], 0.035, 0.055, pos, yaw, geoms);
}

/** A cup: a plain cylinder. */
export function cup(name: string, pos: Vec3, rgba = '0.3 0.55 0.8 1'): KitchenObject {
  return make(name, 'cup', 'cup', 'cup', [0.056, 0.056, 0.08], 0.028, 0.04, pos, 0, g('cylinder', [0.028, 0.04], [0, 0, 0], rgba));
}

/** RoboCasa's packaged_food group: small upright boxes. */
export const PACKAGED: Record<string, { words: string; size: Vec3; rgba: string }> = {
  cereal: { words: 'cereal box', size: [0.025, 0.02, 0.045], rgba: '0.85 0.3 0.2 1' },
  crackers: { words: 'box of crackers', size: [0.026, 0.018, 0.04], rgba: '0.9 0.75 0.2 1' },
  tea: { words: 'tea box', size: [0.024, 0.022, 0.035], rgba: '0.3 0.6 0.3 1' },
};

export function packaged(name: string, kind: keyof typeof PACKAGED, pos: Vec3, yaw: number): KitchenObject {
  const p = PACKAGED[kind];
  return make(
    name,
    'packaged_food',
    p.words,
    String(kind),
    [2 * p.size[0], 2 * p.size[1], 2 * p.size[2]],
    Math.hypot(p.size[0], p.size[1]),
    p.size[2],
    pos,
    yaw,
    g('box', p.size, [0, 0, 0], p.rgba),
  );
}

/** A digital scale: a heavy flat box; its origin is the centre of its top (where things go). */
export function scale(name: string, pos: Vec3): KitchenObject {
  const geoms = `<geom class="object" type="box" size="0.07 0.07 0.01" pos="0 0 -0.01" rgba="0.2 0.2 0.22 1" mass="1.5"/>`;
  const f = free(name, [pos[0], pos[1], pos[2] + 0.02], 0, geoms);
  return {
    name,
    group: 'digital_scale',
    words: 'digital scale',
    restZ: 0,
    radiusM: 0.07,
    sizeM: [0.14, 0.14, 0.02],
    xml: f.xml,
    qpos: f.qpos,
    infos: [{ name, kind: 'scale', colour: '', description: 'digital scale', sizeM: [0.14, 0.14, 0.02], movable: true }],
  };
}

/** A round waffle (RoboCasa's waffle group): a flat disc. */
export function waffle(name: string, pos: Vec3, yaw: number): KitchenObject {
  const geoms = g('cylinder', [0.028, 0.009], [0, 0, 0], '0.85 0.62 0.3 1');
  return make(name, 'waffle', 'waffle', 'waffle', [0.056, 0.056, 0.018], 0.028, 0.009, pos, yaw, geoms);
}

/** A cutting board: a flat slab; its origin is the centre of its top (where things go). */
export function cuttingBoard(name: string, pos: Vec3, yaw = 0): KitchenObject {
  const half: Vec3 = [0.13, 0.09, 0.006];
  const geoms = `<geom class="object" type="box" size="${v3(half)}" pos="0 0 ${n(-half[2])}" rgba="0.78 0.6 0.4 1" mass="0.6"/>`;
  const f = free(name, [pos[0], pos[1], pos[2] + 2 * half[2]], yaw, geoms);
  const sizeM: Vec3 = [2 * half[0], 2 * half[1], 2 * half[2]];
  return {
    name,
    group: 'cutting_board',
    words: 'cutting board',
    restZ: 0,
    radiusM: Math.hypot(half[0], half[1]),
    sizeM,
    xml: f.xml,
    qpos: f.qpos,
    infos: [{ name, kind: 'cutting_board', colour: '', description: 'cutting board', sizeM, movable: true }],
  };
}

/** RoboCasa's knife and peeler groups: flat tools that lie on their side and are gripped across the handle. */
export const CUTTING_TOOLS: Record<'knife' | 'peeler', { size: Vec3; rgba: string }> = {
  knife: { size: [0.1, 0.012, 0.01], rgba: '0.72 0.74 0.78 1' },
  peeler: { size: [0.07, 0.015, 0.011], rgba: '0.25 0.5 0.3 1' },
};

export function cuttingTool(name: string, kind: keyof typeof CUTTING_TOOLS, pos: Vec3, yaw: number): KitchenObject {
  const t = CUTTING_TOOLS[kind];
  return make(name, kind, kind, kind, [2 * t.size[0], 2 * t.size[1], 2 * t.size[2]], t.size[0], t.size[2], pos, yaw, g('box', t.size, [0, 0, 0], t.rgba));
}

/** Produce whose skin is cut with a knife or a peeler (RoboCasa's CuttingToolSelection `_CUTTING_MAP`). */
export const PRODUCE: Record<string, { tool: keyof typeof CUTTING_TOOLS; shape: string; size: number[]; rgba: string; sizeM: Vec3 }> = {
  garlic: { tool: 'knife', shape: 'sphere', size: [0.022], rgba: '0.95 0.93 0.85 1', sizeM: [0.044, 0.044, 0.044] },
  eggplant: { tool: 'peeler', shape: 'capsule', size: [0.026, 0.04], rgba: '0.35 0.15 0.4 1', sizeM: [0.132, 0.052, 0.052] },
  broccoli: { tool: 'knife', shape: 'sphere', size: [0.03], rgba: '0.2 0.55 0.2 1', sizeM: [0.06, 0.06, 0.06] },
  carrot: { tool: 'peeler', shape: 'capsule', size: [0.018, 0.045], rgba: '0.95 0.45 0.1 1', sizeM: [0.126, 0.036, 0.036] },
  cucumber: { tool: 'peeler', shape: 'capsule', size: [0.02, 0.05], rgba: '0.2 0.45 0.15 1', sizeM: [0.14, 0.04, 0.04] },
  potato: { tool: 'peeler', shape: 'sphere', size: [0.028], rgba: '0.7 0.55 0.35 1', sizeM: [0.056, 0.056, 0.056] },
  avocado: { tool: 'knife', shape: 'sphere', size: [0.03], rgba: '0.2 0.35 0.1 1', sizeM: [0.06, 0.06, 0.06] },
};

export function produce(name: string, kind: keyof typeof PRODUCE, pos: Vec3, yaw: number): KitchenObject {
  const p = PRODUCE[kind];
  const euler = p.shape === 'capsule' ? 'euler="0 1.5708 0"' : '';
  return make(name, 'food', kind, kind, p.sizeM, Math.max(p.sizeM[0], p.sizeM[1]) / 2, p.sizeM[2] / 2, pos, yaw, g(p.shape, p.size, [0, 0, 0], p.rgba, euler));
}

/** RoboCasa's condiment_bottle / ketchup / syrup_bottle and shaker groups: upright cylinders. */
export const CONDIMENTS = {
  bottle: { words: 'condiment bottle', r: 0.022, half: 0.055, rgba: ['0.75 0.12 0.1 1', '0.45 0.25 0.1 1', '0.9 0.7 0.2 1'] },
  shaker: { words: 'shaker', r: 0.018, half: 0.04, rgba: ['0.92 0.92 0.92 1', '0.25 0.25 0.27 1'] },
} as const;

export function condiment(name: string, kind: keyof typeof CONDIMENTS, pos: Vec3, yaw: number, shade = 0): KitchenObject {
  const c = CONDIMENTS[kind];
  const geoms = g('cylinder', [c.r, c.half], [0, 0, 0], c.rgba[shade % c.rgba.length]);
  return make(name, kind === 'bottle' ? 'condiment_bottle' : 'shaker', c.words, kind, [2 * c.r, 2 * c.r, 2 * c.half], c.r, c.half, pos, yaw, geoms);
}

/**
 * The blender's lid (RoboCasa's auxiliary fixture with a free joint): a disc with a plug under it
 * that fits the jar's mouth and a knob on top to grip. Its origin is the disc's centre.
 */
export function blenderLid(name: string, pos: Vec3): KitchenObject {
  const c = '0.12 0.12 0.13 1';
  const geoms = `${g('cylinder', [0.068, 0.006], [0, 0, 0], c)}${g('cylinder', [0.05, 0.01], [0, 0, -0.016], c)}${g('cylinder', [0.014, 0.02], [0, 0, 0.026], c)}`;
  return make(name, 'blender_lid', 'blender lid', 'lid', [0.136, 0.136, 0.072], 0.068, 0.026, pos, 0, geoms);
}

/** RoboCasa's sandwich_bread group: a slice of toast, thin along x. */
export function breadSlice(name: string, pos: Vec3, yaw: number): KitchenObject {
  return make(
    name,
    'sandwich_bread',
    'slice of bread',
    'bread',
    [0.015, 0.1, 0.1],
    0.05,
    0.05,
    pos,
    yaw,
    g('box', [0.0075, 0.05, 0.05], [0, 0, 0], '0.82 0.62 0.35 1'),
  );
}

/** RoboCasa's lettuce, small enough for the gripper: a round green head 6.8 cm across. */
export function lettuce(name: string, pos: Vec3, yaw: number): KitchenObject {
  return make(
    name,
    'lettuce',
    'lettuce',
    'lettuce',
    [0.068, 0.068, 0.06],
    0.034,
    0.03,
    pos,
    yaw,
    g('ellipsoid', [0.034, 0.034, 0.03], [0, 0, 0], '0.45 0.75 0.3 1'),
  );
}

/** RoboCasa's sponge: a soft yellow block with a green scouring face on top. */
export function sponge(name: string, pos: Vec3, yaw: number): KitchenObject {
  const geoms = `${g('box', [0.045, 0.03, 0.014], [0, 0, -0.004], '0.95 0.85 0.3 1')}${g('box', [0.045, 0.03, 0.004], [0, 0, 0.014], '0.2 0.55 0.3 1')}`;
  return make(name, 'sponge', 'sponge', 'sponge', [0.09, 0.06, 0.036], 0.045, 0.018, pos, yaw, geoms);
}
