/**
 * The reference solution of a LIBERO task through the robot primitives: for each On/In clause of
 * the goal, pick the object (a bowl or mug by its rim, a box or bottle across its narrow side) and put
 * it on the target object or into the target region (its pose from `state`'s regions). It reads every
 * pose from `find` and `state`, as a model would; the goal's clauses come from the task (TaskGoal).
 */
import { heldByRim, rimGrasps } from '../../../../../../src-shared/rimGrasp';
import type { Call, TaskGoal } from '../../tasks/types';
import { call, locate, moveTo, type GraspResult, type MoveResult, type Steps } from '../../tasks/solutions/steps';
import { closeDoor, closeDrawer, handleOf, jointFor, openDrawer, outward, sceneState, turnKnob, type JointState, type RegionState } from './articulated';
import { doorFront, throughDoor } from './enclosure';

interface Held {
  name: string;
  /** TCP height above the object's base while held (m). */
  gripAboveBase: number;
  /** TCP offset from the object's centre in x–y while held (a rim grasp holds it off-centre). */
  dx: number;
  dy: number;
  /** The hand's yaw as it grasped, and the object's size (m). */
  yaw: number;
  sizeM: number[];
  /** Whether it was grasped across its narrow side at its centre (turning the hand turns it in place). */
  centred: boolean;
  /** Where the TCP stood after the lift. */
  liftedAt: [number, number, number];
  /** Held hanging by an edge (a plate): a fast carry shakes it out of the fingers, so it goes in short moves. */
  hanging?: boolean;
}

/**
 * Moves the TCP from `from` to `to`; when the object hangs by an edge, up first and then across (it hangs
 * lower than its origin), in moves of at most 3 cm.
 */
async function* carry(h: Held, from: [number, number, number], to: [number, number, number]): Steps<MoveResult> {
  if (!h.hanging) return yield* moveTo(to, {});
  let last: MoveResult | null = null;
  const legs: Array<[[number, number, number], [number, number, number]]> = [
    [from, [from[0], from[1], Math.max(from[2], to[2])]],
    [[from[0], from[1], Math.max(from[2], to[2])], to],
  ];
  for (const [a, b] of legs) {
    const n = Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]) / 0.03);
    for (let i = 1; i <= n; i++) last = yield* moveTo([0, 1, 2].map((k) => a[k] + ((b[k] - a[k]) * i) / n) as [number, number, number], {});
  }
  return last ?? (yield* moveTo(to, {}));
}

/** Where to grasp an object: a rim kind by a wall (nearest the robot first), anything else across its narrow side. */
function grasps(
  kind: string,
  o: { position: number[]; sizeM: number[]; yaw: number },
): Array<{ gx: number; gy: number; yaw: number; gripZ: number; widthM?: number; stepLift?: boolean }> {
  const [x, y, z] = o.position;
  const [sx, sy, sz] = o.sizeM;
  if (heldByRim(kind, o.sizeM) && sz < PUSH_BELOW_M) {
    // a plate's rim is a shallow slope: the fingers close on its edge 1.6 cm inside, where the inner
    // one meets the slope as the outer one meets the edge, and it is lifted in small steps, tipping up
    // about its far edge into a hanging grip (lifted at once, it slipped out flat)
    return rimGrasps(o).map((g) => {
      const r = Math.hypot(g.gx - x, g.gy - y);
      const k = (r - 0.012) / r;
      return { ...g, gx: x + (g.gx - x) * k, gy: y + (g.gy - y) * k, stepLift: true };
    });
  }
  // a frying pan's handle rises above its rim, and so its extent: its wall is gripped under the rim's
  // top, not under the handle's
  if (heldByRim(kind, o.sizeM)) return kind === 'pan' ? rimGrasps(o).map((g) => ({ ...g, gripZ: z + Math.max(0.015, 0.45 * sz) })) : rimGrasps(o);
  if (kind === 'pot' && Math.max(sx, sy) > 1.5 * Math.min(sx, sy)) {
    // a moka pot by its handle: the body is as wide as the open gripper, the handle stands at one end
    // of the long axis (the spout, shorter, at the other), fingers across the handle's thin side
    const along = sx > sy ? o.yaw : o.yaw + Math.PI / 2;
    const reach = Math.max(sx, sy) / 2 - 0.012;
    return [1, -1].map((end) => ({
      gx: x + end * reach * Math.cos(along),
      gy: y + end * reach * Math.sin(along),
      yaw: along,
      gripZ: z + Math.min(0.6 * sz, 0.1),
    }));
  }
  // close across the narrower horizontal side of the object (in its own frame)
  const yaw = sx < sy ? o.yaw + Math.PI / 2 : o.yaw;
  // the hand's hull starts 3.7 cm above the finger pads: on a tall object (a bottle) the pads go no
  // lower than that below its top, or the descent stands on it and pushes it over
  const gripZ = z + Math.min(Math.max(0.015, sz * 0.55), sz - 0.012, 0.09, sz > 0.1 ? sz - 0.045 : Infinity);
  // then, where the object is narrow both ways (a bottle), with the hand turned a quarter: its 20 cm
  // length then clears what stands beside the object the first way
  const turn = Math.max(sx, sy) < 0.07;
  return [
    { gx: x, gy: y, yaw, gripZ, widthM: Math.min(sx, sy) },
    { gx: x, gy: y, yaw: turn ? yaw + Math.PI / 2 : yaw, gripZ, widthM: turn ? Math.max(sx, sy) : Math.min(sx, sy) },
  ];
}

/** `prefer` orders the grasps (lowest first; stable), by their TCP offset from the object's position. */
async function* pick(name: string, prefer?: (dx: number, dy: number) => number): Steps<Held> {
  const first = yield* locate(name);
  const desc = ((yield call('find', { query: name })) as { description: string }).description ?? '';
  const kind = desc.split(' ').pop() ?? '';
  const ordered = (o: { position: number[]; sizeM: number[]; yaw: number }) => {
    const gs = grasps(kind, o);
    return prefer
      ? gs
          .map((g, i) => ({ g, i, k: prefer(g.gx - o.position[0], g.gy - o.position[1]) }))
          .sort((a, b) => a.k - b.k || a.i - b.i)
          .map((e) => e.g)
      : gs;
  };
  const tries = ordered(first).length;
  for (let attempt = 0; attempt < tries; attempt++) {
    const o = yield* locate(name);
    const { gx, gy, yaw, gripZ, widthM, stepLift } = ordered(o)[attempt];
    const [, , z] = o.position;
    const sz = o.sizeM[2];
    let above: MoveResult | null = null;
    // high up (a bowl in a cabinet's top drawer) the arm's reach ends: a lower approach then
    for (const clear of [0.1, 0.05]) {
      try {
        above = yield* moveTo([gx, gy, z + sz + clear], { yaw, gripper: 'OPEN' });
        break;
      } catch {
        continue;
      }
    }
    if (!above) continue; // out of reach with this yaw: try the next grasp
    if (!above.reached && above.distanceM > 0.02) continue; // blocked: try the next grasp
    const down = yield* moveTo([gx, gy, Math.max(gripZ, 0.016)], { tolM: 0.01 });
    const next = ordered(o)[attempt + 1];
    if (!down.reached && down.distanceM > 0.02) {
      if (next && (next.gx !== gx || next.gy !== gy || next.yaw !== yaw)) {
        // the fingers (or the hand) stood on something instead of around the object: the next grasp
        yield* moveTo([gx, gy, above.position[2]], {});
        continue;
      }
      // the arm stopped higher up (its wrist against a tall neighbour, a rack), sliding aside: the
      // fingers go back over the grasp point at the height it allows, if that is still on the object
      const higher = down.position[2] + 0.008;
      if (higher < z + sz - 0.015) {
        yield* moveTo([gx, gy, higher + 0.04], {});
        yield* moveTo([gx, gy, higher], { tolM: 0.01 });
      }
    }
    // a box or can is squeezed to 1.2 cm under its width, not shut on: the finger servo's full force
    // pushed the pads through a can's thin collision plates (LIBERO's soup), where they stuck; a tall
    // object held near its top (a book) needs the full force or it slips
    let g = { success: false } as GraspResult;
    if (widthM !== undefined && sz <= 0.1) {
      const r = (yield call('set_gripper', { opening: Math.max(0, widthM - 0.012) })) as { holding: string | null };
      g = { success: r.holding !== null, holding: r.holding, openingM: 0 };
    }
    if (!g.success) g = (yield call('grasp')) as GraspResult;
    if (g.success) {
      // high up (out of a cabinet's top drawer) the lift ends where the arm's reach does
      let up: MoveResult | null = null;
      if (stepLift) for (let tz = Math.max(gripZ, 0.016) + 0.005; tz < z + sz + 0.15; tz += 0.005) yield* moveTo([gx, gy, tz], { tolM: 0.003 });
      for (const lift of [0.15, 0.1, 0.06]) {
        try {
          up = yield* moveTo([gx, gy, z + sz + lift], {});
          break;
        } catch (e) {
          if (lift === 0.06) throw e;
        }
      }
      if (!up) throw new Error(`solution: could not lift ${name}`);
      // hanging by its edge, a plate shaken out by the first quick move falls back here, where the next grasp finds it
      if (stepLift) up = yield* moveTo([gx, gy, up.position[2] + 0.03], {});
      const now = yield* locate(o.name);
      if (now.position[2] < z + 0.02) {
        // the fingers held it but it stayed where it was (it slipped out as the hand rose): the next grasp
        yield call('release');
        continue;
      }
      return {
        name: o.name,
        gripAboveBase: up.position[2] - now.position[2],
        dx: up.position[0] - now.position[0],
        dy: up.position[1] - now.position[1],
        yaw,
        sizeM: o.sizeM,
        centred: widthM !== undefined && attempt === 0,
        liftedAt: up.position,
        hanging: stepLift,
      };
    }
    yield call('release');
    yield* moveTo([gx, gy, above.position[2]], {});
  }
  throw new Error(`solution: could not grasp ${name}`);
}

/** Sets the held object down with its base at baseZ over (cx, cy), carried with its base over `topZ` (a container's rim). */
async function* placeOver(h: Held, cx: number, cy: number, baseZ: number, yaw?: number, topZ = baseZ, onTop = false): Steps {
  const tcpZ = baseZ + h.gripAboveBase;
  let x = cx + h.dx;
  let y = cy + h.dy;
  // a turn while travelling swings a tall object (a book) out of the fingers: it turns where it was lifted
  if (yaw !== undefined) yield* moveTo(h.liftedAt, { yaw, tolM: 0.01 });
  // over a high support (a cabinet's top) the arm's reach ends about 40 cm up: a lower approach then
  // and far out, where the arm is stretched, under the 25 cm carry height (the wrist nearer the shoulder's height)
  let approachZ = Math.max(0.25, tcpZ + 0.12);
  const tries: Array<[number, number]> = [
    [0.12, 0.25],
    [0.07, 0.25],
    [0.035, 0.25],
    [0.07, 0],
  ];
  for (const [clear, carryZ] of tries) {
    approachZ = Math.max(carryZ, tcpZ + clear, topZ + h.gripAboveBase + 0.04 + (h.hanging ? Math.max(h.sizeM[0], h.sizeM[1]) / 2 : 0));
    try {
      yield* carry(h, h.liftedAt, [x, y, approachZ]);
      break;
    } catch (e) {
      if (carryZ === 0) throw e;
    }
  }
  if (yaw !== undefined) {
    // the turn moved the object about the fingers' grip: where it hangs now is measured
    const now = yield* locate(h.name);
    x += cx - now.position[0];
    y += cy - now.position[1];
    yield* moveTo([x, y, approachZ], { tolM: 0.005 });
  }
  if (onTop) {
    // wider than the opening it goes over (a mug over a caddy's narrow slot): lowered 1 cm at a time
    // and let go once it has stood on the walls three steps; pressed down in one move, it tilted and
    // slid off them
    let blocked = 0;
    for (let zTcp = approachZ - 0.01; zTcp > tcpZ && blocked < 3; zTcp -= 0.01) {
      const step = yield* moveTo([x, y, zTcp], { tolM: 0.003 });
      if (!step.reached && step.distanceM > 0.004) blocked++;
    }
    yield call('release');
    yield* moveTo([x, y, approachZ], {});
    return;
  }
  const down = yield* moveTo([x, y, tcpZ + 0.01], { tolM: 0.01 });
  // stopped on a container's walls, the arm still presses down and the fingers cannot open: it lets
  // go from just above where it stopped, the object dropping the rest of the way
  if (!down.reached && down.distanceM > 0.02) yield* moveTo([x, y, down.position[2] + 0.015], { tolM: 0.01 });
  yield call('release');
  yield* moveTo([x, y, approachZ], {});
}

/**
 * Turns a held object about the fingers, where it was lifted, until it hangs on their far side (+x, away
 * from the robot), in steps under a quarter turn (a half turn of the hand is the same grip), and measures
 * how it hangs then; undefined when it is held at its centre or already hangs that way.
 */
async function* hangOutward(h: Held): Steps<Held | undefined> {
  if (Math.hypot(h.dx, h.dy) < 0.02) return undefined;
  const delta = Math.atan2(h.dy, -h.dx);
  if (Math.abs(delta) < 0.3) return undefined;
  const steps = Math.ceil(Math.abs(delta) / 1.2);
  let at = h.liftedAt;
  for (let i = 1; i <= steps; i++) at = (yield* moveTo(h.liftedAt, { yaw: h.yaw + (delta * i) / steps, tolM: 0.01 })).position;
  const now = yield* locate(h.name);
  return {
    ...h,
    yaw: h.yaw + delta,
    dx: at[0] - now.position[0],
    dy: at[1] - now.position[1],
    gripAboveBase: at[2] - now.position[2],
    centred: false,
    liftedAt: at,
  };
}

/** Objects this low (a plate) slip out of the fingers, which stop 1.5 cm above the table: they are pushed. */
const PUSH_BELOW_M = 0.025;

/**
 * Pushes `name` along the table until its centre is at (tx, ty): the closed fingers set down behind it
 * (their pair across the push) and moved through; it is found again and the rest pushed, up to three times.
 */
async function* push(name: string, tx: number, ty: number): Steps {
  for (let round = 0; round < 3; round++) {
    const o = yield* locate(name);
    const [x, y] = o.position;
    const dist = Math.hypot(tx - x, ty - y);
    if (dist < 0.012) return;
    const d: [number, number] = [(tx - x) / dist, (ty - y) / dist];
    const r = Math.max(o.sizeM[0], o.sizeM[1]) / 2;
    // a finger pad is about 1 cm thick: the pads' front at the object's rim means its centre at (tx, ty)
    const back = r + 0.011;
    const start: [number, number] = [x - d[0] * (back + 0.03), y - d[1] * (back + 0.03)];
    const end: [number, number] = [tx - d[0] * back, ty - d[1] * back];
    const yaw = Math.atan2(d[1], d[0]);
    yield* moveTo([start[0], start[1], 0.12], { yaw, gripper: 'CLOSE' });
    yield* moveTo([start[0], start[1], 0.015], { tolM: 0.01 });
    yield* moveTo([end[0], end[1], 0.015], { tolM: 0.005 });
    yield* moveTo([end[0] - d[0] * 0.03, end[1] - d[1] * 0.03, 0.015], { tolM: 0.01 });
    yield* moveTo([end[0] - d[0] * 0.03, end[1] - d[1] * 0.03, 0.12], { tolM: 0.01 });
  }
}

/**
 * The hand yaw that stands a held object's long side along a narrow region's long side (a book into a
 * caddy's slot), or undefined when it fits as it is held. Held across its narrow side at its centre,
 * the fingers then close along the region's narrow side.
 */
function slotYaw(h: Held, region: RegionState): number | undefined {
  const narrow = Math.min(region.sizeM[0], region.sizeM[1]);
  if (!h.centred || Math.max(h.sizeM[0], h.sizeM[1]) < narrow - 0.01 || Math.min(h.sizeM[0], h.sizeM[1]) > narrow) return undefined;
  // yaw 0 closes along world y, ±π/2 along x; of the two equivalent yaws, the nearer to the held one
  const base = region.sizeM[0] < region.sizeM[1] ? Math.PI / 2 : 0;
  const turn = (a: number): number => Math.abs(Math.atan2(Math.sin(a - h.yaw), Math.cos(a - h.yaw)));
  return turn(base) <= turn(base - Math.PI) ? base : base - Math.PI;
}

/** `slot` of `slots` objects going to one region: they stand side by side along its longer side, inside it. */
async function* solveClause(predicate: string, a: string, b: string, slot = 0, slots = 1): AsyncGenerator<Call, void, unknown> {
  const st = yield* sceneState();
  const region = st.regions?.find((r) => r.name === b);
  const o = yield* locate(a);
  if (region && predicate === 'on' && o.sizeM[2] < PUSH_BELOW_M && Math.abs(region.position[2] - o.position[2]) < 0.01) {
    // a flat object going to a region on the surface it stands on
    yield* push(a, region.position[0], region.position[1]);
    return;
  }
  const door = region && predicate === 'in' ? yield* doorFront(st, region) : undefined;
  if (region && door) {
    yield* throughDoor(a, region, door, { pick, placeOver });
    return;
  }
  // into an open drawer: held by the wall on the drawer's outer side, so that a swing in the fingers
  // (about their closing line) tilts it along the drawer's front, not up under the cabinet's face
  const slide = predicate === 'in' ? st.joints?.find((j) => j.kind === 'slide' && b === j.name.replace(/_level$/, '_region')) : undefined;
  const d = slide ? outward(slide) : [0, 0];
  const held = yield* pick(a, slide ? (dx, dy) => -(dx * d[0] + dy * d[1]) : undefined);
  if (region) {
    const [x0, y0, z] = region.position;
    const alongX = region.sizeM[0] >= region.sizeM[1];
    const shift = (slot - (slots - 1) / 2) * (Math.max(region.sizeM[0], region.sizeM[1]) / slots);
    // and as far out as its region allows (the cabinet's face overhangs the rest)
    const out = Math.max(0, (Math.abs(d[0]) * region.sizeM[0] + Math.abs(d[1]) * region.sizeM[1]) / 2 - Math.max(o.sizeM[0], o.sizeM[1]) / 2 - 0.005);
    const lean = predicate === 'on' ? leanOnto(o, region, st) : [0, 0];
    const x = (alongX ? x0 + shift : x0) + d[0] * out + lean[0];
    const y = (alongX ? y0 : y0 + shift) + d[1] * out + lean[1];
    const top = z + region.sizeM[2] / 2;
    const baseZ = predicate === 'in' ? Math.max(z - region.sizeM[2] / 2, 0) + 0.01 : top + 0.005;
    const yaw = slotYaw(held, region);
    // a tall vessel (a mug) wider both ways than the region's narrow side cannot go in: it is set on
    // its walls (held by the rim, its base far below the fingers, it tips over a wall when pressed; a
    // shallow bowl pressed down settles into the slot)
    const kind = (((yield call('find', { query: a })) as { description?: string }).description ?? '').split(' ').pop() ?? '';
    const wider =
      yaw === undefined &&
      heldByRim(kind, o.sizeM) &&
      o.sizeM[2] >= 0.6 * Math.max(o.sizeM[0], o.sizeM[1]) &&
      Math.min(o.sizeM[0], o.sizeM[1]) > Math.min(region.sizeM[0], region.sizeM[1]) + 0.01;
    try {
      yield* placeOver(held, x, y, baseZ, yaw, top, predicate === 'in' && wider);
    } catch (e) {
      // far out, an object held off-centre (a moka pot by its handle) is turned about the fingers to
      // hang beyond them: the hand then stops that much nearer the arm's base
      const turned = yaw === undefined && /reach/.test(String(e)) ? yield* hangOutward(held) : undefined;
      if (!turned) throw e;
      yield* placeOver(turned, x, y, baseZ, undefined, top);
    }
    return;
  }
  const t = yield* locate(b);
  yield* placeOver(held, t.position[0], t.position[1], t.position[2] + t.sizeM[2] + 0.005);
}

/**
 * An object standing where the drawer will come out (an open drawer overhangs it, and the hand cannot
 * reach under) is first set down further out along the drawer's path.
 */
async function* clearDrawerPath(object: string, regionName: string, j: JointState, st: { regions?: RegionState[] }): Steps {
  const region = st.regions?.find((r) => r.name === regionName);
  if (!region) return;
  const d = outward(j);
  const h = handleOf(region, d);
  const o = yield* locate(object);
  const along = (o.position[0] - h[0]) * d[0] + (o.position[1] - h[1]) * d[1];
  const across = Math.abs((o.position[0] - h[0]) * -d[1] + (o.position[1] - h[1]) * d[0]);
  const travel = Math.abs(j.range[0] - j.range[1]);
  const reach = travel + 0.1 + Math.max(o.sizeM[0], o.sizeM[1]) / 2;
  if (along > reach || across > 0.2) return;
  const held = yield* pick(object);
  const shift = reach + 0.02 - along;
  yield* placeOver(held, o.position[0] + d[0] * shift, o.position[1] + d[1] * shift, 0.005);
}

/**
 * Where a flat object (lower than it is wide) goes on a raised region narrower than it (a rack's slot,
 * at the lower edge of its sloping board): not at the strip, where it overhangs and slides off, but
 * further onto the region's fixture, from the region's centre toward the fixture's by its own
 * half-width and 2 cm. [0, 0] otherwise.
 */
function leanOnto(
  o: { sizeM: number[] },
  region: RegionState,
  st: { regions?: unknown; objects?: Array<{ name: string; position: number[] }> },
): [number, number] {
  const narrow = Math.min(o.sizeM[0], o.sizeM[1]);
  if (region.position[2] < 0.05 || o.sizeM[2] >= narrow || narrow <= Math.min(region.sizeM[0], region.sizeM[1]) + 0.01) return [0, 0];
  const owner = (st.objects ?? []).filter((f) => region.name.startsWith(`${f.name}_`)).sort((p, q) => q.name.length - p.name.length)[0];
  if (!owner) return [0, 0];
  const v = [owner.position[0] - region.position[0], owner.position[1] - region.position[1]];
  const n = Math.hypot(v[0], v[1]);
  if (n < 0.01) return [0, 0];
  const shift = narrow / 2 + 0.02;
  return [(v[0] / n) * shift, (v[1] / n) * shift];
}

/** Clauses in the order a person would do them: open first, then knobs, then put things, then close. */
const ORDER: Record<string, number> = { open: 0, turnon: 1, turnoff: 1, on: 2, in: 2, close: 3 };

export async function* liberoSolution(goal: TaskGoal): AsyncGenerator<Call, void, unknown> {
  const clauses = Object.keys(goal)
    .sort((x, y) => Number(x) - Number(y))
    .map((k) => goal[k].split(' '))
    .sort((a, b) => (ORDER[a[0]] ?? 9) - (ORDER[b[0]] ?? 9));
  for (const [predicate, a, b] of clauses) {
    if (predicate === 'on' || predicate === 'in') {
      // a region inside a shut drawer is opened first
      const st = yield* sceneState();
      const j = st.joints?.find((x) => x.kind === 'slide' && b === x.name.replace(/_level$/, '_region'));
      if (j && Math.abs(j.value) < 0.1) {
        yield* clearDrawerPath(a, b, j, st);
        yield* openDrawer(b);
      }
      // objects put on one region stand side by side; into one (a basket) each goes to its middle
      const sharing = predicate === 'on' ? clauses.filter((c) => c[0] === 'on' && c[2] === b) : [[predicate, a, b]];
      yield* solveClause(
        predicate,
        a,
        b,
        sharing.findIndex((c) => c[1] === a),
        sharing.length,
      );
    } else if (predicate === 'turnon' || predicate === 'turnoff') yield* turnKnob(a, predicate === 'turnon');
    else if (predicate === 'open') yield* openDrawer(a);
    else if (predicate === 'close') {
      const st = yield* sceneState();
      if (jointFor(st.joints ?? [], a).kind === 'slide') yield* closeDrawer(a);
      else yield* closeDoor(a);
    } else throw new Error(`solution: no reference motion for ${predicate}`);
  }
  yield call('wait', { seconds: 0.6 });
}
