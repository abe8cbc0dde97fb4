/**
 * The heuristic agent's navigation skill, for an instruction to go somewhere ("Navigate to the
 * sink.", "Drive over to the stove.", "Move the robot to the dishwasher.") in a scene whose `state`
 * shows a drivable base and a floor plan. All it knows is what the conversation gives: the named
 * fixture's position, front direction and footprint, the counters' footprints, and where its own
 * base stood at the first look. Its rule of thumb: a robot works a fixture from in front of its
 * counter, facing it, as far off the counter's edge as it stood off the fixture it started at.
 */
import { Block, type Program } from './cellIr';
import type { Finish, PhaseResult } from './conversation';

const NAV = /^\s*(?:navigate|go|drive|head)(?: over)? to (?:the )?(.+?)(?: and face it)?\s*[.!]?\s*$/i;
const MOVE_ROBOT = /^\s*move the robot to (?:the )?(.+?)\s*[.!]?\s*$/i;
const MAX_ROUNDS = 3;
/** How far the base backs away from the counters before a second try at a drive that met something. */
const BACK_OFF_M = 0.4;

/** The place an instruction sends the robot to, or null when it is not a navigation instruction. */
export function parseNavigation(instruction: string): string | null {
  const m = NAV.exec(instruction) ?? MOVE_ROBOT.exec(instruction);
  return m ? m[1].toLowerCase() : null;
}

interface Box {
  min: [number, number];
  max: [number, number];
}
interface PlanFixture extends Box {
  name: string;
  kind: string;
  position: [number, number];
  front: [number, number];
}
interface NavScene {
  base: { position: [number, number]; yaw: number };
  fixtures: PlanFixture[];
  boxes: Box[];
}

function readNavScene(r: PhaseResult): NavScene | null {
  const s = r.emits.find((e) => typeof e.base === 'object' && e.base !== null && typeof e.floorPlan === 'object' && e.floorPlan !== null);
  if (!s) return null;
  const plan = s.floorPlan as { fixtures?: PlanFixture[]; counters?: Box[] };
  if (!Array.isArray(plan.fixtures)) return null;
  return { base: s.base as NavScene['base'], fixtures: plan.fixtures, boxes: [...(plan.counters ?? []), ...plan.fixtures] };
}

const words = (f: PlanFixture): string[] => f.kind.split(/[_\s]+/);

/** The fixture the place names: every word of its kind in the place, the most words first. */
function named(scene: NavScene, place: string): PlanFixture | null {
  const said = new Set(place.split(/[\s,]+/));
  const hits = scene.fixtures.filter((f) => words(f).every((w) => said.has(w)) || f.name.toLowerCase() === place.replace(/\s+/g, '_'));
  return hits.sort((a, b) => words(b).length - words(a).length)[0] ?? null;
}

/** The first point from a fixture's centre along its front that lies outside every footprint: the counter's edge. */
function edgeOf(f: PlanFixture, boxes: Box[]): [number, number] {
  const inside = (p: [number, number]) => boxes.some((b) => p[0] >= b.min[0] && p[0] <= b.max[0] && p[1] >= b.min[1] && p[1] <= b.max[1]);
  let p = f.position;
  for (let i = 0; i < 400 && inside(p); i++) p = [p[0] + 0.01 * f.front[0], p[1] + 0.01 * f.front[1]];
  return p;
}

/** How far the base stands off the edge in front of the fixture nearest it (its working distance). */
function standoff(scene: NavScene): number {
  const b = scene.base.position;
  const facing = scene.fixtures.filter((f) => f.front[0] * (b[0] - f.position[0]) + f.front[1] * (b[1] - f.position[1]) > 0);
  const near = [...facing].sort((f, g) => Math.hypot(f.position[0] - b[0], f.position[1] - b[1]) - Math.hypot(g.position[0] - b[0], g.position[1] - b[1]))[0];
  if (!near) return 0.3;
  const e = edgeOf(near, scene.boxes);
  return Math.max(0.2, near.front[0] * (b[0] - e[0]) + near.front[1] * (b[1] - e[1]));
}

const r4 = (n: number) => Number(n.toFixed(4));

function lookProgram(): Program {
  const b = new Block();
  b.emit(b.call('state', {}, 'scene'));
  return { title: 'look at the scene', body: b.stmts };
}

/** Drives in front of the named place; after a drive that met something, backs off into the room first. */
export function* navigationProcedure(place: string): Generator<Program, Finish, PhaseResult> {
  let offM: number | null = null;
  let lastError = '';
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const look = yield lookProgram();
    const scene = look.ok ? readNavScene(look) : null;
    if (!scene) return { status: 'failure', summary: `I was asked to go to the ${place}, but the scene shows no base I can drive.` };
    const f = named(scene, place);
    if (!f) return { status: 'failure', summary: `I see no ${place} in the floor plan.` };
    offM ??= standoff(scene);
    const e = edgeOf(f, scene.boxes);
    const goal: [number, number] = [r4(e[0] + offM * f.front[0]), r4(e[1] + offM * f.front[1])];
    const yaw = r4(Math.atan2(-f.front[1], -f.front[0]));
    const b0 = scene.base.position;
    if (Math.hypot(b0[0] - goal[0], b0[1] - goal[1]) < 0.03 && Math.abs(Math.sin((scene.base.yaw - yaw) / 2)) < 0.02)
      return { status: 'success', summary: `The base stands in front of the ${f.name}, facing it.` };
    const b = new Block();
    if (round > 0) {
      // Straight back from where it stands, away from the counter it faces, then on.
      const c = Math.cos(scene.base.yaw);
      const s = Math.sin(scene.base.yaw);
      b.call('move_base', { xy: [r4(b0[0] - BACK_OFF_M * c), r4(b0[1] - BACK_OFF_M * s)], yaw: r4(scene.base.yaw) });
    }
    b.call('move_base', { xy: goal, yaw });
    const r = yield { title: `drive in front of the ${f.name}, facing it`, body: b.stmts };
    if (!r.ok) lastError = r.error ?? 'the drive failed';
  }
  return { status: 'failure', summary: `I could not get in front of the ${place}${lastError ? `; last error: ${lastError}` : ''}.` };
}
