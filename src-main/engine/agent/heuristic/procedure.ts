/**
 * The heuristic agent's decision procedure, the same for both arms: look at the scene (`state`),
 * write a program for what is left of the goal, run it, and read what came back. A program runs
 * until the agent needs to judge again: it ends, or something failed that its own retries could
 * not fix (an object not found, three missed grasps, a drawer that did not move, a call that
 * threw). Then the agent looks again and plans what is still undone, a few rounds at most.
 */
import { add, Block, get, obj, type Program } from './cellIr';
import type { Finish, PhaseResult } from './conversation';
import type { Goal, PlaceStep } from './instruction';
import { parseInstruction } from './instruction';
import { navigationProcedure, parseNavigation } from './navigate';
import { clausesResolve, generalProcedure, readGeneralScene } from './general';
import { parseClauses } from './phrases';
import { resolveOne } from './resolve';
import type { GeneralScene } from './scene';
import type { Noise, RoundSlips } from './noise';
import { closeDrawer, liftTogether, locate, openDrawer, park, pickUp, placeAt, placeInDrawer, ProgramBuilder, restZ, type SurfaceKind } from './skills';

export type { Finish, PhaseResult };

export type Procedure = Generator<Program, Finish, PhaseResult>;

interface SceneArm {
  name: string;
  tcp: [number, number, number];
  holding: string | null;
}
interface SceneObject {
  name: string;
  kind: string;
  colour: string;
  position: [number, number, number];
  yaw: number;
}
interface Scene {
  arms: SceneArm[];
  objects: SceneObject[];
}

const MAX_ROUNDS = 6;
const TRAVEL_Z = 0.16;
/** Above a cabinet (and whatever stands on the table beside it). */
const HIGH_TRAVEL_Z = 0.2;

function readScene(r: PhaseResult): Scene | null {
  const s = r.emits.find((e) => Array.isArray(e.objects) && Array.isArray(e.arms));
  return s ? { arms: s.arms as SceneArm[], objects: s.objects as SceneObject[] } : null;
}

const STOP = new Set(['the', 'a', 'an']);

/** Names of the scene objects a query's words all describe (colour, kind, name words). */
export function resolve(scene: Scene, query: string): string[] {
  const q = query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w && !STOP.has(w));
  const exact = scene.objects.filter((o) => o.name.toLowerCase() === query.trim().toLowerCase());
  if (exact.length) return exact.map((o) => o.name);
  return scene.objects
    .filter((o) => {
      const hay = new Set([o.kind, o.colour, ...o.name.toLowerCase().split(/[_\s-]+/)]);
      if (o.kind === 'marker') hay.add('square');
      return q.every((w) => hay.has(w));
    })
    .map((o) => o.name);
}

const nounOf = (query: string): string => query.trim().split(/\s+/).pop() ?? '';

function surfaceOf(query: string, scene: Scene): SurfaceKind {
  const noun = nounOf(query);
  if (noun === 'bowl' || noun === 'plate' || noun === 'square' || noun === 'cube') return noun;
  const o = scene.objects.find((x) => x.name === query);
  if (o?.kind === 'bowl' || o?.kind === 'plate' || o?.kind === 'cube') return o.kind;
  return o?.kind === 'marker' ? 'square' : 'plate';
}

const hyp = (a: number[], b: number[]) => Math.hypot(a[0] - b[0], a[1] - b[1]);

/** Whether the scene already shows `object` on/in `target` (the agent's own reading of the scene). */
function looksPlaced(scene: Scene, object: string, target: string, kind: SurfaceKind): boolean {
  const o = scene.objects.find((x) => x.name === object);
  const t = scene.objects.find((x) => x.name === target);
  if (!o || !t || scene.arms.some((a) => a.holding === object)) return false;
  const d = hyp(o.position, t.position);
  const z = o.position[2] - t.position[2];
  switch (kind) {
    case 'bowl':
      return d < 0.07 && z < 0.07;
    case 'plate':
      return d < 0.05 && z < 0.05;
    case 'square':
      return d < 0.045 && o.position[2] < 0.04;
    case 'cube':
      return d < 0.02 && z > 0.02 && z < 0.08;
  }
}

/** Memory across rounds, from what programs printed. */
interface Memory {
  /** Query → object name, once a program found it. */
  names: Map<string, string>;
  drawerOpenedM: number | null;
  drawerOutM: number | null;
  placedInDrawer: boolean;
  /** The arms' poses at the first look: where to park them. */
  home: Map<string, [number, number, number]>;
  /** Queries `find` answered with nothing. */
  notFound: Set<string>;
}

function remember(mem: Memory, r: PhaseResult): void {
  for (const e of r.emits) {
    if (typeof e.query === 'string' && typeof e.object === 'string') mem.names.set(e.query, e.object);
    if (typeof e.opened === 'number') mem.drawerOpenedM = e.opened;
    if (typeof e.after === 'number') mem.drawerOutM = e.after;
    if (e.inDrawer === true) mem.placedInDrawer = true;
  }
  // "red cube not found", as a cell's error line ("Error: Error: … (line 9)") or the program's own.
  const missing = /^(?:\w*Error: )*(.+?) not found\b/.exec(r.error ?? '');
  if (missing) mem.notFound.add(missing[1]);
}

/**
 * Frees every hand that holds something the plan does not expect to hold, and lifts a hand left
 * low (a program whose last motion should have met the goal ends where it acted, see SkillEnd):
 * going straight up first, it cannot sweep through what it just put down on its way elsewhere.
 */
function freeHands(p: ProgramBuilder, scene: Scene, multiArm: boolean): void {
  for (const a of scene.arms) {
    if (!a.holding && a.tcp[2] >= TRAVEL_Z - 0.005) continue;
    const arm = multiArm ? { arm: a.name } : {};
    if (a.holding) p.b.call('release', arm);
    p.b.call('move_to', { xyz: [a.tcp[0], a.tcp[1], Math.max(a.tcp[2], TRAVEL_Z)], ...arm });
  }
}

interface Planned {
  program: Program | null;
  /** Set when the goal cannot be pursued (say, no object answers a query). */
  impossible?: string;
}

function placeSteps(goal: Goal, scene: Scene): PlaceStep[] {
  switch (goal.kind) {
    case 'place':
      return goal.steps;
    case 'place-all':
      return scene.objects.filter((o) => o.kind === goal.objectKind).map((o) => ({ object: o.name, target: goal.target }));
    case 'sort-by-colour':
      return scene.objects
        .filter((o) => o.kind === goal.objectKind && scene.objects.some((t) => t.kind === goal.targetKind && t.colour === o.colour))
        .map((o) => ({ object: o.name, target: scene.objects.find((t) => t.kind === goal.targetKind && t.colour === o.colour)!.name }));
    default:
      return [];
  }
}

function plan(goal: Goal, scene: Scene, mem: Memory, slips: RoundSlips): Planned {
  const multiArm = scene.arms.length > 1;
  const tall = scene.objects.some((o) => o.kind === 'cabinet');
  const p = new ProgramBuilder(slips, tall ? HIGH_TRAVEL_Z : TRAVEL_Z);
  const { b } = p;
  const title = (s: string) => ({ title: s, body: b.stmts });
  if (slips.buggyProgram()) b.call('fnd', { query: 'table' });
  const nameFor = (q: string): string => {
    const known = mem.names.get(q);
    if (known) return known;
    const hits = resolve(scene, q);
    return hits.length === 1 ? hits[0] : q;
  };
  const homeOf = (arm: string) => mem.home.get(arm) ?? [0.45, 0, 0.25];

  if (goal.kind === 'place' || goal.kind === 'place-all' || goal.kind === 'sort-by-colour') {
    const steps = placeSteps(goal, scene);
    if (steps.length === 0) return { program: null, impossible: 'there is nothing in the scene the instruction asks me to move' };
    const todo = steps
      .map((s, i) => ({ ...s, i, object: nameFor(s.object), target: nameFor(s.target) }))
      .filter((s) => !looksPlaced(scene, s.object, s.target, surfaceOf(s.target, scene)));
    if (todo.length === 0) return { program: null };
    for (const q of todo.flatMap((s) => [s.object, s.target])) {
      // `find` already came back empty for it, and the scene lists nothing of that colour and kind: it is not there.
      if (mem.notFound.has(q) && resolve(scene, q).length === 0) return { program: null, impossible: `I looked for the ${q} and the scene has none` };
    }
    freeHands(p, scene, multiArm);
    const sharedTarget = new Set(steps.map((s) => s.target)).size === 1 && steps.length > 1;
    for (const s of todo) {
      // The last placement is the goal's last motion: no backing off, parking or waiting after it.
      const final = s === todo[todo.length - 1];
      const arm = multiArm ? (s.arm ?? nearestArm(scene, s.object)) : undefined;
      const picked = pickUp(p, s.object, arm);
      const kind = surfaceOf(s.target, scene);
      const t = locate(p, b, s.target, 't');
      let [dx, dy] = [0, 0];
      if (kind === 'bowl' && sharedTarget) {
        // Several objects into one container: spread the drop points so they do not land on each other.
        const ring = Math.PI * 2 * (s.i / Math.max(3, steps.length));
        if (arm) [dx, dy] = [0, (homeOf(arm)[1] > (scene.objects.find((o) => o.name === s.target)?.position[1] ?? 0) ? 1 : -1) * 0.03];
        else [dx, dy] = [0.042 * Math.cos(ring), 0.042 * Math.sin(ring)];
      }
      placeAt(
        p,
        picked,
        dx ? add(get(t, 'position', 0), dx) : get(t, 'position', 0),
        dy ? add(get(t, 'position', 1), dy) : get(t, 'position', 1),
        restZ(kind, t, picked),
        arm,
        p.travelZ,
        { final },
      );
      if (arm && !final) park(p, arm, homeOf(arm));
      b.emit(obj({ query: s.object, object: get(picked, 'name'), target: get(t, 'name') }));
    }
    return { program: title(`put ${todo.map((s) => `${s.object} ${surfaceOf(s.target, scene) === 'bowl' ? 'in' : 'on'} ${s.target}`).join(', then ')}`) };
  }

  if (goal.kind === 'drawer') {
    const drawer = scene.objects.find((o) => o.kind === 'drawer');
    if (!drawer) return { program: null, impossible: 'I see no drawer in the scene' };
    if (goal.action === 'close') {
      if (mem.drawerOutM !== null && mem.drawerOutM <= 0) return { program: null };
      freeHands(p, scene, multiArm);
      closeDrawer(p, { final: true });
      return { program: title('push the drawer shut') };
    }
    const opened = mem.drawerOpenedM !== null && mem.drawerOpenedM >= 0.1;
    if (goal.putInside === undefined && opened) return { program: null };
    if (goal.putInside !== undefined && mem.placedInDrawer && !scene.arms.some((a) => a.holding)) {
      const o = scene.objects.find((x) => x.name === nameFor(goal.putInside!));
      if (o && hyp(o.position, drawer.position) < 0.16 && o.position[2] < 0.12) return { program: null };
    }
    freeHands(p, scene, multiArm);
    if (!opened) openDrawer(p, { final: goal.putInside === undefined });
    if (goal.putInside !== undefined) {
      const q = nameFor(goal.putInside);
      const picked = pickUp(p, q, undefined, HIGH_TRAVEL_Z);
      placeInDrawer(p, picked, HIGH_TRAVEL_Z, { final: true });
      b.emit(obj({ query: q, object: get(picked, 'name'), inDrawer: true }));
    }
    return { program: title(goal.putInside ? `open the drawer and put the ${goal.putInside} in it` : 'pull the drawer open') };
  }

  if (goal.kind === 'handover') {
    if (!multiArm) return { program: null, impossible: 'a hand-over needs two arms; this robot has one' };
    const to = scene.arms.find((a) => a.name === goal.to);
    const from = scene.arms.find((a) => a.name === goal.from);
    if (!to || !from) return { program: null, impossible: `this robot has no ${!to ? goal.to : goal.from} arm` };
    const name = nameFor(goal.object);
    if (to.holding === name) return { program: null };
    const o = scene.objects.find((x) => x.name === name);
    freeHands(p, scene, multiArm);
    // The hand-over spot: on the table where the object is along x, halfway between the two arms.
    const midY = (homeOf(from.name)[1] + homeOf(to.name)[1]) / 2;
    const picked = pickUp(p, name, from.name);
    // Released with its centre just above its resting height on the table (a small drop).
    placeAt(p, picked, o ? o.position[0] : 0.48, midY, add(get(picked, 'half'), 0.004), from.name);
    park(p, from.name, homeOf(from.name));
    pickUp(p, name, to.name);
    return { program: title(`hand the ${goal.object} from the ${from.name} arm to the ${to.name} arm`) };
  }

  // lift-together
  if (!multiArm) return { program: null, impossible: 'lifting with both arms needs two arms; this robot has one' };
  const name = nameFor(goal.object);
  const t = scene.objects.find((x) => x.name === name);
  if (scene.arms.every((a) => a.holding === name) && t && t.position[2] > 0.1) return { program: null };
  freeHands(p, scene, multiArm);
  // Each arm takes the end of the long axis on its own side.
  const [a0, a1] = scene.arms;
  const yAxisY = Math.cos(t?.yaw ?? 0);
  const first: 1 | -1 = (homeOf(a0.name)[1] - homeOf(a1.name)[1]) * yAxisY >= 0 ? 1 : -1;
  liftTogether(p, name, [
    { name: a0.name, end: first },
    { name: a1.name, end: first === 1 ? -1 : 1 },
  ]);
  return { program: title(`lift the ${goal.object} with both arms`) };
}

function nearestArm(scene: Scene, object: string): string {
  const o = scene.objects.find((x) => x.name === object);
  if (!o) return scene.arms[0].name;
  return [...scene.arms].sort((a, b) => hyp(a.tcp, o.position) - hyp(b.tcp, o.position))[0].name;
}

function surveyProgram(): Program {
  const b = new Block();
  const s = b.call('state', {}, 'scene');
  b.emit(s);
  return { title: 'look at the scene', body: b.stmts };
}

/** After a plan that should have done it: move every hand up and away, let things settle. */
function settleProgram(scene: Scene): Program {
  const b = new Block();
  const multi = scene.arms.length > 1;
  for (const a of scene.arms) b.call('move_to', { xyz: [a.tcp[0], a.tcp[1], Math.max(a.tcp[2], 0.2)], gripper: 'OPEN', ...(multi ? { arm: a.name } : {}) });
  b.call('wait', { seconds: 1 });
  return { title: 'back off and let everything settle', body: b.stmts };
}

/**
 * Whether the block-world skills fit this goal in this scene: what they move are cubes and trays
 * (grasped at the centre from above) and a drawer they open is an object of its own. Anything else
 * (bowls, bottles, boxes, cabinets with drawers) goes to the general procedure.
 */
function blockWorld(goal: Goal, scene: Scene, general: GeneralScene, fitsGeneral: boolean): boolean {
  const movable = (q: string) => {
    const hits = resolve(scene, q);
    // Nothing answers: the query's own noun says what it is (the block-world procedure reports it missing).
    if (hits.length === 0) {
      // What the general reader finds for it instead (a "block" for a cube) must be a cube or a tray too.
      const other = resolveOne(general, q.split(/\s+/));
      return ['cube', 'tray'].includes(nounOf(q)) && (other ? ['cube', 'tray'].includes(other.kind) : !fitsGeneral);
    }
    return hits.every((n) => ['cube', 'tray'].includes(scene.objects.find((o) => o.name === n)?.kind ?? ''));
  };
  switch (goal.kind) {
    case 'drawer':
      return scene.objects.some((o) => o.kind === 'drawer') && (goal.putInside === undefined || movable(goal.putInside));
    case 'place':
      return goal.steps.every((s) => movable(s.object));
    case 'place-all':
    case 'sort-by-colour':
      return scene.objects.some((o) => o.kind === goal.objectKind);
    case 'handover':
    case 'lift-together':
      return movable(goal.object);
  }
}

export function* heuristicProcedure(instruction: string, noise: Noise): Procedure {
  const place = parseNavigation(instruction);
  if (place) return yield* navigationProcedure(place);
  const goal = parseInstruction(instruction);
  const clauses = parseClauses(instruction);
  if (!goal && !clauses) return { status: 'failure', summary: `I do not understand the instruction "${instruction}".` };
  // The first look decides which skills fit the scene.
  let firstLook: PhaseResult | null = yield surveyProgram();
  const first = firstLook.ok ? readScene(firstLook) : null;
  const general = first ? readGeneralScene(firstLook) : null;
  if (first && general && clauses && (!goal || !blockWorld(goal, first, general, clausesResolve(clauses, general))))
    return yield* generalProcedure(clauses, general);
  if (!goal) return { status: 'failure', summary: `I do not understand the instruction "${instruction}" in this scene.` };
  const mem: Memory = { names: new Map(), drawerOpenedM: null, drawerOutM: null, placedInDrawer: false, home: new Map(), notFound: new Set() };
  let lastError = '';
  let settled = false;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const look = firstLook ?? (yield surveyProgram());
    firstLook = null;
    const scene = look.ok ? readScene(look) : null;
    if (!scene) {
      // The look itself failed (a cell that threw): look again next round.
      lastError = `I could not read the scene: ${look.error ?? 'no state came back'}`;
      continue;
    }
    if (mem.home.size === 0) for (const a of scene.arms) mem.home.set(a.name, a.tcp);
    const next = plan(goal, scene, mem, noise.forRound(round));
    if (next.impossible) return { status: 'failure', summary: next.impossible };
    if (!next.program) {
      if (settled) return { status: 'success', summary: 'The scene looks as the instruction asks.' };
      settled = true;
      yield settleProgram(scene);
      continue;
    }
    const r = yield next.program;
    remember(mem, r);
    if (!r.ok) lastError = r.error ?? 'the step failed';
  }
  return { status: 'failure', summary: `I gave up after ${MAX_ROUNDS} rounds${lastError ? `; last error: ${lastError}` : ''}.` };
}
