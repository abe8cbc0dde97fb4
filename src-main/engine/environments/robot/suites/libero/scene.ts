/**
 * A LIBERO scene as one MJCF: the scene style (floor, walls, lights, materials) and every object and
 * fixture attached from LIBERO's own files (MuJoCo <attach>, names prefixed `<instance>_`, so region
 * sites read as LIBERO names them: `wooden_cabinet_1_top_region`), a table of LIBERO's size, and the
 * Menagerie Panda where LIBERO mounts its Panda. World frame: the workspace surface (table top or
 * floor) is z = 0 at the workspace's centre, +x away from the robot, as the robot primitives expect.
 * Placement follows LIBERO's samplers: fixtures then objects, each uniform in its region's rectangle,
 * rejected while it overlaps a placed one (horizontal radii and heights, 5000 tries), objects on
 * another object or in a fixture's region site at that site.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Rng } from '../../../../prng';
import { patchPandaXml, pandaScenePath, stripPandaVisuals } from '../../robots/panda';
import { BddlError, type BddlProblem, type BddlRegion } from './bddl';
import { liberoDir } from './catalog';
import { collisionTopUnder, hideCollisionGeoms, liberoModel, modelExtent, siteInModel, type LiberoModel } from './models';

export interface Workspace {
  kind: 'table' | 'kitchen_table' | 'living_room_table' | 'study_table' | 'floor';
  /** LIBERO's workspace offset (world frame of LIBERO), used to shift the scene style. */
  offset: [number, number, number];
  /** Table full size (x, y, thickness), or null for the floor. */
  tableSize: [number, number, number] | null;
  /** The Panda base in our frame (LIBERO's base_xpos_offset less the workspace offset). */
  robotBase: [number, number, number];
  style: string;
}

export const WORKSPACES: Record<Workspace['kind'], Workspace> = {
  table: { kind: 'table', offset: [0, 0, 0.9], tableSize: [1.0, 1.2, 0.05], robotBase: [-0.66, 0, 0.012], style: 'libero_tabletop_base_style' },
  kitchen_table: {
    kind: 'kitchen_table',
    offset: [0, 0, 0.9],
    tableSize: [1.0, 1.2, 0.05],
    robotBase: [-0.66, 0, 0.012],
    style: 'libero_kitchen_tabletop_base_style',
  },
  living_room_table: {
    kind: 'living_room_table',
    offset: [0, 0, 0.41],
    tableSize: [0.7, 1.6, 0.024],
    robotBase: [-0.51, 0, 0.01],
    style: 'libero_living_room_tabletop_base_style',
  },
  study_table: { kind: 'study_table', offset: [-0.2, 0, 0.867], tableSize: [1.0, 1.2, 0.05], robotBase: [-0.55, 0, 0.045], style: 'libero_study_base_style' },
  floor: { kind: 'floor', offset: [0, 0, 0], tableSize: null, robotBase: [-0.6, 0, 0], style: 'libero_floor_base_style' },
};

/** LIBERO's init_qpos for joints 2, 4, 6 (hand down over the table); joints 1, 3, 5, 7 as the Menagerie home keeps our yaw convention. */
const PANDA_HOME = [0, -0.161, 0, -2.4446, 0, 2.2268, -0.7853];
const PANDA_OPEN = 0.04;

export interface Placed {
  name: string;
  category: string;
  model: LiberoModel;
  fixture: boolean;
  pos: [number, number, number];
  yaw: number;
  /** Initial values of the model's own joints (drawers, doors, knobs), by joint name. */
  joints: Record<string, number>;
  /**
   * Where the model's own frame sits in the placed body: an object's body origin is the centre of
   * its base (the collision geometry's horizontal centre, at its lowest point), a fixture's is LIBERO's.
   */
  frameOffset: [number, number, number];
  /** Full extents of the collision geometry (m): x, y in the model's frame, z. */
  sizeM: [number, number, number];
}

export interface LiberoScene {
  xml: string;
  files: Record<string, Uint8Array | string>;
  placed: Placed[];
  workspace: Workspace;
  /** Where placement departed from the BDDL's rectangles, and why. */
  notes: string[];
}

export interface SceneChoice {
  /** category replacements (the object axis) */
  categories?: Record<string, string>;
  /** placement swaps (the position axis): instance → instance whose initial place it takes */
  swap?: Record<string, string>;
  /** another scene style (the environment axis) */
  style?: string;
  /** The Panda's visual meshes (default true); headless checks can leave them out (~2.5 s less to load). */
  pandaVisuals?: boolean;
}

const f = (v: number): string => String(Number(v.toFixed(5)));
const v3 = (a: readonly number[]): string => a.map(f).join(' ');
const yawQuat = (yaw: number): [number, number, number, number] => [Math.cos(yaw / 2), 0, 0, Math.sin(yaw / 2)];

const pandaFiles = new Map<boolean, Record<string, Uint8Array | string>>();
function pandaModelFiles(visual: boolean): Record<string, Uint8Array | string> {
  const hit = pandaFiles.get(visual);
  if (hit) return hit;
  const scene = pandaScenePath();
  const dir = join(scene, '..');
  const raw = readFileSync(join(dir, 'panda.xml'), 'utf8');
  let xml = patchPandaXml(visual ? raw : stripPandaVisuals(raw, 'panda.xml'), 'panda.xml');
  xml = xml.replace(/<keyframe>[\s\S]*?<\/keyframe>/, '');
  // each finger collides through its main pad box only: the finger's convex hull and its four small
  // corner pads enclose or stand proud of it, so thin rims (a bowl's, a mug's) touched those and never
  // the pad the grasp check reads
  xml = xml.replace(/\s*<geom mesh="finger_0" class="collision"\/>/g, '').replace(/\s*<geom class="fingertip_pad_collision_[2-5]"\/>/g, '');
  // a stiffer finger servo (ctrl stays the opening: gain = stiffness / 2): Menagerie's squeezes with
  // 100 N/m of split, under 0.3 N on a 3 mm rim, and LIBERO's bowls slipped out as the arm lifted them
  xml = xml.replace(/(<general class="panda" name="actuator8"[^>]*?)gainprm="[^"]*"([^>]*?)biasprm="[^"]*"/, '$1gainprm="1500 0 0"$2biasprm="0 -3000 -40"');
  // a wrist camera on the hand, looking along the approach axis (LIBERO's eye-in-hand view)
  xml = xml.replace(/(<body name="hand"[^>]*>)/, '$1\n<camera name="wrist" pos="0.05 0 0.04" xyaxes="0 -1 0 1 0 0" fovy="75"/>');
  const files: Record<string, Uint8Array | string> = { 'panda/panda.xml': xml };
  // the vendored binary, decimated copies of the OBJ meshes (msh/, scripts/vendor-panda.mjs) load ~10x faster
  const msh = existsSync(join(dir, 'msh')) ? new Set(readdirSync(join(dir, 'msh'))) : new Set<string>();
  xml = xml.replace(/(<mesh\b[^>]*\bfile=")([^"]+)\.obj"/g, (m, a: string, stem: string) => (msh.has(`${stem}.msh`) ? `${a}msh/${stem}.msh"` : m));
  for (const m of xml.matchAll(/<mesh\b[^>]*\bfile="([^"]+)"/g)) {
    const rel = m[1];
    files[`panda/assets/${rel}`] = new Uint8Array(readFileSync(rel.startsWith('msh/') ? join(dir, rel) : join(dir, 'assets', rel)));
  }
  files['panda/panda.xml'] = xml;
  pandaFiles.set(visual, files);
  return files;
}

function styleFile(style: string): { key: string; files: Record<string, Uint8Array | string> } {
  const root = join(liberoDir(), 'assets');
  const key = `libero/scenes/${style}.xml`;
  let xml = readFileSync(join(root, 'scenes', `${style}.xml`), 'utf8');
  // the table is ours (LIBERO's arena resizes the style's); the style's cameras are replaced by the scene's
  xml = xml.replace(/<body name="table"[\s\S]*?<\/body>/, '').replace(/<camera\b[^>]*\/>/g, '');
  // only the floor collides: the style's furniture meshes stand where LIBERO's arena put its own table
  xml = xml.replace(/<geom\b([^>]*)\/>/g, (g, a: string) =>
    /\bname="floor"/.test(a) ? g : `<geom${a.replace(/\s(contype|conaffinity)="[^"]*"/g, '')} contype="0" conaffinity="0"/>`,
  );
  xml = hideCollisionGeoms(xml.replace(/<worldbody>/, '<worldbody><body name="main">').replace(/<\/worldbody>/, '</body></worldbody>'));
  const files: Record<string, Uint8Array | string> = { [key]: xml };
  for (const m of xml.matchAll(/\bfile="([^"]+)"/g)) {
    const rel = join('scenes', m[1]);
    files[`libero/${rel.split('\\').join('/')}`] = new Uint8Array(readFileSync(join(root, rel)));
  }
  return { key, files };
}

interface Footprint {
  x: number;
  y: number;
  z: number;
  r: number;
  bottom: number;
  top: number;
  /** A fixture's collision footprint in its own frame, and its yaw. */
  rect?: [number, number, number, number];
  yaw: number;
}

/** Whether a disc of radius r at (x, y) overlaps a fixture's yawed footprint rectangle. */
function hitsRect(o: Footprint, x: number, y: number, r: number): boolean {
  if (!o.rect) return false;
  const c = Math.cos(-o.yaw);
  const s = Math.sin(-o.yaw);
  const lx = c * (x - o.x) - s * (y - o.y);
  const ly = s * (x - o.x) + c * (y - o.y);
  const dx = Math.max(o.rect[0] - lx, 0, lx - o.rect[2]);
  const dy = Math.max(o.rect[1] - ly, 0, ly - o.rect[3]);
  return Math.hypot(dx, dy) < r;
}

/** The workspace kind of a problem: its table (or floor) fixture's category. */
export function workspaceOf(problem: BddlProblem): Workspace {
  for (const fx of problem.fixtures) if (fx.category in WORKSPACES) return WORKSPACES[fx.category as Workspace['kind']];
  throw new BddlError(problem.file, 1, ':fixtures', 'no table or floor fixture (table, kitchen_table, living_room_table, study_table, floor)');
}

/** Places every fixture and object of `problem` and writes the scene MJCF. */
export async function buildLiberoScene(problem: BddlProblem, rng: Rng, choice: SceneChoice = {}): Promise<LiberoScene> {
  const ws = workspaceOf(problem);
  const workspaceNames = new Set(problem.fixtures.filter((e) => e.category in WORKSPACES).map((e) => e.name));
  const entities = [
    ...problem.fixtures.filter((e) => !workspaceNames.has(e.name)).map((e) => ({ ...e, fixture: true })),
    ...problem.objects.map((e) => ({ ...e, fixture: false })),
  ];
  const regionById = new Map(problem.regions.map((r) => [r.id, r]));
  // the init fact that places each entity (On/In X target); swaps exchange two entities' facts
  const placeFact = new Map<string, { predicate: string; target: string; line: number }>();
  for (const a of problem.init)
    if ((a.predicate === 'on' || a.predicate === 'in') && a.args.length === 2)
      placeFact.set(a.args[0], { predicate: a.predicate, target: a.args[1], line: a.line });
  for (const [a, b] of Object.entries(choice.swap ?? {})) {
    const fa = placeFact.get(a);
    const fb = placeFact.get(b);
    if (fa && fb) {
      placeFact.set(a, fb);
      placeFact.set(b, fa);
    }
  }
  const placed: Placed[] = [];
  const notes: string[] = [];
  const footprints: Footprint[] = [];
  const byName = new Map<string, Placed>();
  const order = [...entities].sort((a, b) => Number(b.fixture) - Number(a.fixture));
  const pending = [...order];
  for (let pass = 0; pending.length && pass < 4; pass++) {
    for (const e of [...pending]) {
      const fact = placeFact.get(e.name);
      if (!fact) throw new BddlError(problem.file, e.line, `${e.category} ${e.name}`, 'no (On …) or (In …) fact in :init places it');
      const region = regionById.get(fact.target);
      const parentName = region ? region.target : fact.target;
      if (!workspaceNames.has(parentName) && !byName.has(parentName)) continue; // placed after its support
      const category = choice.categories?.[e.category] ?? e.category;
      const model = liberoModel(category);
      const ext = await modelExtent(model);
      // LIBERO's own horizontal radius (its regions are sized for it); heights come from the geometry
      const r = model.horizontalRadiusM;
      const frameOffset: [number, number, number] = e.fixture ? [0, 0, 0] : [-(ext.rect[0] + ext.rect[2]) / 2, -(ext.rect[1] + ext.rect[3]) / 2, -ext.bottomZ];
      const base = e.fixture ? ext.bottomZ : 0; // lowest point relative to the body origin
      const height = ext.topZ - ext.bottomZ;
      let pos: [number, number, number] | null = null;
      let yaw = 0;
      if (region && workspaceNames.has(region.target)) {
        if (region.ranges.length === 0) throw new BddlError(problem.file, region.line, `region ${region.name}`, 'a workspace region needs :ranges');
        // LIBERO's rectangles are sized for its radius sites; ours checks the real geometry, and widens a
        // rectangle by up to 8 cm (in 1 cm steps) when nothing fits in it, saying so in the scene's notes
        const rGeom = e.fixture ? r : Math.max(r, Math.max(ext.rect[2] - ext.rect[0], ext.rect[3] - ext.rect[1]) / 2);
        for (let grow = 0; grow <= 0.08 + 1e-9 && !pos; grow += 0.01) {
          for (let i = 0; i < 600 && !pos; i++) {
            const [x0, y0, x1, y1] = region.ranges[rng.int(0, region.ranges.length - 1)];
            const x = rng.uniform(x0 - grow, x1 + grow);
            const y = rng.uniform(y0 - grow, y1 + grow);
            const z = 0.003 - base;
            const clash = footprints.some((o) => (o.rect ? hitsRect(o, x, y, rGeom) : Math.hypot(x - o.x, y - o.y) <= o.r + rGeom) && z + base < o.z + o.top);
            if (!clash) pos = [x, y, z];
          }
          if (pos && grow > 0) notes.push(`${e.name}: nothing fits in ${region.id}, placed within ${(grow * 100).toFixed(0)} cm of it`);
        }
        if (!pos)
          throw new BddlError(
            problem.file,
            fact.line,
            `(${fact.predicate} ${e.name} ${fact.target})`,
            `cannot place ${e.name} in or within 8 cm of ${region.id} without overlapping what is already placed`,
          );
        if (region.yawRange) yaw = rng.uniform(region.yawRange[0], region.yawRange[1]);
      } else {
        const parent = byName.get(parentName)!;
        let surface: [number, number, number];
        let halfXY: [number, number] = [0, 0];
        if (region) {
          const site = await siteInModel(parent.model, region.name, parent.joints);
          surface = toWorld(parent, site.pos);
          const ext = [0, 1, 2].map(
            (k) =>
              Math.abs(site.mat[3 * k] * regionSize(parent.model, region)[0]) +
              Math.abs(site.mat[3 * k + 1] * regionSize(parent.model, region)[1]) +
              Math.abs(site.mat[3 * k + 2] * regionSize(parent.model, region)[2]),
          );
          halfXY = [Math.max(0, ext[0] - r), Math.max(0, ext[1] - r)];
          surface[2] += fact.predicate === 'in' ? -ext[2] : ext[2];
        } else {
          surface = [parent.pos[0], parent.pos[1], parent.pos[2] + (parent.fixture ? (await modelExtent(parent.model)).topZ : parent.sizeM[2])];
        }
        const x = surface[0] + rng.uniform(-0.5, 0.5) * halfXY[0];
        const y = surface[1] + rng.uniform(-0.5, 0.5) * halfXY[1];
        if (region && fact.predicate === 'on') {
          // a region site can lie under the geometry it names (the stove's burner site under its plate):
          // an object set on the site stood inside the hull, stuck there (a small bowl 8 mm deep)
          const c = Math.cos(parent.yaw);
          const s = Math.sin(parent.yaw);
          const [dx, dy] = [x - parent.pos[0], y - parent.pos[1]];
          const lx = c * dx + s * dy - parent.frameOffset[0];
          const ly = -s * dx + c * dy - parent.frameOffset[1];
          const foot = Math.min(ext.rect[2] - ext.rect[0], ext.rect[3] - ext.rect[1]) / 4;
          const top = await collisionTopUnder(parent.model, lx, ly, foot, parent.joints);
          if (top !== null) surface[2] = Math.max(surface[2], parent.pos[2] + parent.frameOffset[2] + top);
        }
        pos = [x, y, surface[2] + 0.004 - base];
      }
      const sizeM: [number, number, number] = [ext.rect[2] - ext.rect[0], ext.rect[3] - ext.rect[1], height];
      const p: Placed = { name: e.name, category, model, fixture: e.fixture, pos, yaw, joints: {}, frameOffset, sizeM };
      // its joints as the init facts set them before anything is put in it: a bowl in an open drawer
      // goes where the open drawer's inside is, not where the shut drawer's would be
      p.joints = initJointsOf(problem, regionById, p);
      placed.push(p);
      byName.set(e.name, p);
      const rFoot = e.fixture ? r : Math.max(r, Math.max(ext.rect[2] - ext.rect[0], ext.rect[3] - ext.rect[1]) / 2);
      footprints.push({ x: pos[0], y: pos[1], z: pos[2], r: rFoot, bottom: base, top: base + height, rect: e.fixture ? ext.rect : undefined, yaw });
      pending.splice(pending.indexOf(e), 1);
    }
  }
  if (pending.length) {
    const e = pending[0];
    const fact = placeFact.get(e.name)!;
    throw new BddlError(
      problem.file,
      fact.line,
      `(${fact.predicate} ${e.name} ${fact.target})`,
      `cannot place ${e.name}: its support "${fact.target}" is never placed`,
    );
  }
  for (const a of problem.init) {
    if (!ARTICULATION_FACTS.has(a.predicate)) continue;
    const region = regionById.get(a.args[0]);
    if (!byName.has(region ? region.target : a.args[0])) throw new BddlError(problem.file, a.line, `(${a.predicate} ${a.args[0]})`, 'names nothing placed');
  }
  return { ...writeScene(problem, ws, placed, choice.style ?? ws.style, choice.pandaVisuals ?? true), placed, workspace: ws, notes };
}

const ARTICULATION_FACTS = new Set(['open', 'close', 'turnon', 'turnoff']);

/** The joint values of `owner` that the init facts (Open/Close/Turnon/Turnoff of it or of its regions) set. */
function initJointsOf(problem: BddlProblem, regionById: Map<string, BddlRegion>, owner: Placed): Record<string, number> {
  const joints: Record<string, number> = {};
  for (const a of problem.init) {
    if (!ARTICULATION_FACTS.has(a.predicate)) continue;
    const region = regionById.get(a.args[0]);
    if ((region ? region.target : a.args[0]) !== owner.name) continue;
    const names = region ? (owner.model.sites.find((s) => s.name === region.name)?.joints ?? []) : owner.model.joints.map((j) => j.name);
    for (const j of names)
      joints[j] = initialJointValue(
        owner.category,
        a.predicate,
        owner.model.joints.find((x) => x.name === j),
      );
  }
  return joints;
}

function regionSize(model: LiberoModel, region: BddlRegion): [number, number, number] {
  return model.sites.find((s) => s.name === region.name)?.size ?? [0.02, 0.02, 0.001];
}

function toWorld(p: Placed, inModel: [number, number, number]): [number, number, number] {
  const local = [inModel[0] + p.frameOffset[0], inModel[1] + p.frameOffset[1], inModel[2] + p.frameOffset[2]];
  const c = Math.cos(p.yaw);
  const s = Math.sin(p.yaw);
  return [p.pos[0] + c * local[0] - s * local[1], p.pos[1] + s * local[0] + c * local[1], p.pos[2] + local[2]];
}

/** A joint value that LIBERO's articulated objects read as open / closed / on / off. */
export function initialJointValue(category: string, predicate: string, joint?: { range?: [number, number] }): number {
  const open = predicate === 'open' || predicate === 'turnon';
  if (!open) return 0;
  const ranges = articulationOf(category);
  if (ranges) return (ranges.open[0] + ranges.open[1]) / 2;
  return joint?.range ? joint.range[Math.abs(joint.range[0]) > Math.abs(joint.range[1]) ? 0 : 1] * 0.8 : 0;
}

/** LIBERO-PRO's stand-ins derived from a LIBERO fixture (scripts/vendor/liberoVariants.mjs) read as that fixture. */
const DERIVED_FROM: Record<string, string> = { yellow_cabinet: 'wooden_cabinet', yellow_stove: 'flat_stove' };

/** The articulation ranges of a fixture category (or of the LIBERO fixture it was derived from). */
export const articulationOf = (category: string): (typeof ARTICULATION)[string] | undefined =>
  ARTICULATION[category] ?? ARTICULATION[DERIVED_FROM[category] ?? ''];

/** LIBERO's articulation ranges (envs/objects/articulated_objects.py): joint values that count as open (or on) and closed (or off). */
export const ARTICULATION: Record<string, { open: [number, number]; close: [number, number]; sense: 'min' | 'max' }> = {
  microwave: { open: [-2.094, -1.3], close: [-0.005, 0], sense: 'min' },
  wooden_cabinet: { open: [-0.16, -0.14], close: [0, 0.005], sense: 'min' },
  white_cabinet: { open: [-0.16, -0.14], close: [0, 0.005], sense: 'min' },
  short_cabinet: { open: [0.1, 0.16], close: [-0.005, 0], sense: 'max' },
  short_fridge: { open: [2.0, 2.7], close: [-0.005, 0], sense: 'max' },
  flat_stove: { open: [0.5, 2.1], close: [-0.005, 0], sense: 'max' },
};

function writeScene(
  problem: BddlProblem,
  ws: Workspace,
  placed: Placed[],
  style: string,
  pandaVisuals: boolean,
): { xml: string; files: Record<string, Uint8Array | string> } {
  const files: Record<string, Uint8Array | string> = { ...pandaModelFiles(pandaVisuals) };
  const st = styleFile(style);
  Object.assign(files, st.files);
  const models = new Map<string, LiberoModel>();
  for (const p of placed) models.set(p.model.fileKey, p.model);
  for (const m of models.values()) Object.assign(files, m.files);
  const modelName = (m: LiberoModel) => `m_${m.category}`;
  const assets = [
    `<model name="style" file="${st.key}"/>`,
    `<model name="panda" file="panda/panda.xml"/>`,
    ...[...models.values()].map((m) => `<model name="${modelName(m)}" file="${m.fileKey}"/>`),
  ];
  const [ox, oy, oz] = ws.offset;
  const wsName = problem.fixtures.find((e) => e.category === ws.kind)?.name ?? ws.kind;
  const surfaceZ = ws.tableSize ? ws.tableSize[2] / 2 : 0;
  const zones = problem.regions
    .filter((r) => r.target === wsName && r.ranges.length)
    .map((r) => {
      const [x0, y0, x1, y1] = r.ranges[0];
      return `<site name="${r.id}" type="box" pos="${v3([(x0 + x1) / 2, (y0 + y1) / 2, surfaceZ])}" size="${v3([Math.max((x1 - x0) / 2, 0.001), Math.max((y1 - y0) / 2, 0.001), 0.001])}" rgba="0 0 0 0"/>`;
    })
    .join('');
  const table = ws.tableSize
    ? `<body name="${wsName}" pos="0 0 ${f(-ws.tableSize[2] / 2)}">${zones}
      <geom name="table_collision" type="box" size="${v3([ws.tableSize[0] / 2, ws.tableSize[1] / 2, ws.tableSize[2] / 2])}" friction="1 0.005 0.0001" material="style_table_texture"/>
      <geom name="table_legs" type="box" size="${v3([ws.tableSize[0] / 2 - 0.05, ws.tableSize[1] / 2 - 0.05, (oz - ws.tableSize[2]) / 2])}" pos="0 0 ${f(-(oz - ws.tableSize[2]) / 2 - ws.tableSize[2] / 2)}" contype="0" conaffinity="0" rgba="0.4 0.3 0.22 1"/>
    </body>`
    : `<body name="${wsName}">${zones}</body>`;
  const qpos: number[] = [...PANDA_HOME, PANDA_OPEN, PANDA_OPEN];
  const bodies: string[] = [];
  for (const p of placed) {
    const q = yawQuat(p.yaw);
    const free = p.fixture ? '' : `<freejoint name="${p.name}_free"/>`;
    const attach = `<attach model="${modelName(p.model)}" body="main" prefix="${p.name}_"/>`;
    const inner = p.fixture ? attach : `<body name="${p.name}_frame" pos="${v3(p.frameOffset)}">${attach}</body>`;
    bodies.push(`<body name="${p.name}" pos="${v3(p.pos)}" quat="${v3(q)}">${free}${inner}</body>`);
    if (!p.fixture) qpos.push(...p.pos, ...q);
    for (const j of p.model.joints) if (j.type !== 'free') qpos.push(p.joints[j.name] ?? 0);
  }
  const ctrl = [...PANDA_HOME, PANDA_OPEN * 2];
  // where a viewer's free camera looks (MuJoCo's statistic, which the studio's orbit view starts from):
  // the robot and its workspace; computed from the whole model it is the room's centre, 10.6 m across,
  // and a view from there stands outside the walls
  const reach = (ws.tableSize ? ws.tableSize[0] / 2 : 0.5) - ws.robotBase[0];
  const look = `<statistic center="${v3([ws.robotBase[0] + reach / 2, 0, 0.25])}" extent="${f(reach + 0.5)}"/>`;
  const xml = `<mujoco model="libero ${problem.file}">
  <compiler angle="radian" autolimits="true"/>
  <option timestep="0.002" cone="elliptic" impratio="10" integrator="implicitfast"><flag multiccd="enable"/></option>
  <visual><global offwidth="1280" offheight="960"/></visual>
  ${look}
  <asset>${assets.join('')}</asset>
  <worldbody>
    <body name="scene_style" pos="${v3([-ox, -oy, -oz])}"><attach model="style" body="main" prefix="style_"/></body>
    ${table}
    <body name="robot_base" pos="${v3(ws.robotBase)}"><attach model="panda" body="link0" prefix=""/></body>
    ${bodies.join('\n    ')}
    <camera name="front" pos="${v3([0.5 - ox, -oy, 1.35 - oz])}" quat="0.653 0.271 0.271 0.653" fovy="45"/>
    <camera name="top" pos="${v3([-0.2 - ox, -oy, 3.0 - oz])}" quat="0.7071 0 0 0.7071" fovy="45"/>
    <camera name="side" pos="${v3([-0.0565 - ox, 1.2761 - oy, 1.488 - oz])}" quat="0.0099 0.0069 0.5912 0.8064" fovy="45"/>
  </worldbody>
  <keyframe><key name="home" qpos="${qpos.map(f).join(' ')}" ctrl="${ctrl.map(f).join(' ')}"/></keyframe>
</mujoco>`;
  return { xml, files };
}
