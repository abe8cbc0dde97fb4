/**
 * RoboCasa's BreadSelection (composite-unseen, `composite/making_toast/bread_selection.py`): a
 * croissant among other pastries on plates on the counter, a jar of jam at the front of the open
 * cabinet, both onto the cutting board. RoboCasa's cabinet has two doors; ours has one (as in
 * ArrangeTea), open. The first phrasing is RoboCasa's instruction, the other three its variations.
 */
import type { Vec3 } from '../../robots/math3';
import { call, locate, placeAt, settle } from '../../tasks/solutions/steps';
import { retreat } from './atomic';
import { kitchenTask } from './define';
import { gripperFar, inReceptacle, verdict } from './judging';
import type { Kitchen } from './kitchen';
import { cuttingBoard, food, FOODS, make, plate, type KitchenObject } from './objects';
import { pickFrom } from './steps';
import type { Rng } from '../../../../prng';
import { scatter } from '../../tasks/layout';

const geom = (type: string, size: number[], pos: Vec3, rgba: string, extra = ''): string =>
  `<geom class="object" type="${type}" size="${size.join(' ')}" pos="${pos.join(' ')}" rgba="${rgba}" ${extra}/>`;

/** RoboCasa's croissant: a golden roll lying on its side, gripped across it (4.4 cm). */
export function croissant(name: string, pos: Vec3, yaw: number): KitchenObject {
  const c = '0.86 0.6 0.28 1';
  const geoms = `${geom('capsule', [0.022, 0.035], [0, 0, 0], c, 'euler="0 1.5708 0"')}${geom('capsule', [0.014, 0.012], [0, 0, 0.01], '0.8 0.52 0.22 1', 'euler="0 1.5708 0"')}`;
  return make(name, 'croissant', 'croissant', 'croissant', [0.114, 0.044, 0.044], 0.057, 0.022, pos, yaw, geoms);
}

/** RoboCasa's other pastries here (`("baguette", "cupcake")`). */
export function pastry(name: string, kind: 'baguette' | 'cupcake', pos: Vec3, yaw: number): KitchenObject {
  if (kind === 'baguette')
    return make(
      name,
      'baguette',
      'baguette',
      'baguette',
      [0.18, 0.04, 0.04],
      0.09,
      0.02,
      pos,
      yaw,
      geom('capsule', [0.02, 0.07], [0, 0, 0], '0.8 0.58 0.3 1', 'euler="0 1.5708 0"'),
    );
  const geoms = `${geom('cylinder', [0.024, 0.017], [0, 0, -0.008], '0.55 0.35 0.2 1')}${geom('sphere', [0.023], [0, 0, 0.012], '0.95 0.75 0.8 1')}`;
  return make(name, 'cupcake', 'cupcake', 'cupcake', [0.048, 0.048, 0.05], 0.024, 0.025, pos, yaw, geoms);
}

/** RoboCasa's jam: a glass jar with a lid, upright, gripped across (5.6 cm). */
export function jamJar(name: string, pos: Vec3, yaw: number): KitchenObject {
  const geoms = `${geom('cylinder', [0.028, 0.04], [0, 0, -0.005], '0.6 0.1 0.2 1')}${geom('cylinder', [0.029, 0.005], [0, 0, 0.04], '0.85 0.75 0.3 1')}`;
  return make(name, 'jam', 'jar of jam', 'jam', [0.058, 0.058, 0.09], 0.029, 0.045, pos, yaw, geoms);
}

/** The cutting board beside the cabinet on the side its open door leaves free, long side along the counter's depth. */
function boardSpot(rng: Rng, k: Kitchen, free: 'left' | 'right'): Vec3 {
  const c = k.fixture('cabinet');
  const s = free === 'left' ? 1 : -1;
  const edge = c.pos[1] + s * (c.fixture.widthM / 2 + 0.04);
  return [rng.uniform(0.47, 0.51), edge + s * (0.09 + rng.uniform(0, 0.06)), 0];
}

const PLATE_R = 0.07;

const breadSelection = kitchenTask({
  name: 'BreadSelection',
  group: 'composite-unseen',
  target: 'cabinet',
  phrasings: () => [
    'From the different types of pastries on the counter, select a croissant and place it on the cutting board. Then retrieve a jar of jam from the cabinet and place it alongside the croissant on the cutting board.',
    'Pick a croissant from the pastries on the counter and put it on the cutting board. Next, grab a jar of jam from the cabinet and set it beside the croissant.',
    'Take a croissant from the counter, place it on the board, and finish by placing a jam jar from the cabinet beside it.',
    'Grab a croissant from among the pastries and set it on the board. Then take a jam jar from the cupboard and put it alongside the cutting board.',
  ],
  defaultWords: {},
  fixtures: () => ({ open: { cabinet: 1 } }),
  instance(rng, k) {
    const c = k.fixture('cabinet');
    const free = k.spec.hingeLeft ? 'right' : 'left';
    const s = free === 'left' ? 1 : -1;
    const [bx, by] = boardSpot(rng, k, free);
    const board = cuttingBoard('cutting_board', [bx, by, 0], rng.uniform(-0.1, 0.1));
    // The two plates in front of the cabinet, clear of the open door's line on the hinge side.
    const front = c.pos[0] - c.fixture.depthM / 2;
    const yLo = c.pos[1] - s * 0.16;
    const yHi = c.pos[1] + s * 0.25;
    const spots = scatter(rng, [PLATE_R + 0.004, PLATE_R + 0.004], { x: [0.34, front - 0.03], y: [Math.min(yLo, yHi), Math.max(yLo, yHi)] }, 0.02);
    const [pc, pd] = rng.next() < 0.5 ? spots : [spots[1], spots[0]];
    const pastryKind = rng.pick(['baguette', 'cupcake'] as const);
    const plates = [plate('plate_croissant', [pc[0], pc[1], 0], PLATE_R), plate('plate_pastry', [pd[0], pd[1], 0], PLATE_R)];
    const onPlate = 0.006;
    const croiss = croissant('croissant', [pc[0], pc[1], onPlate], rng.uniform(-0.6, 0.6));
    const other = pastry('distr_pastry', pastryKind, [pd[0], pd[1], onPlate], rng.uniform(-0.6, 0.6));
    // The jar at the cabinet's front (RoboCasa: pos (0, -1), 0.2 m deep), under the half-depth shelf's edge.
    const jam = jamJar('jam', k.toWorld('cabinet', [-c.fixture.depthM / 2 + 0.035, rng.uniform(-0.08, 0.08), 0.012]), rng.uniform(-1, 1));
    // A distractor on the counter beyond the open door (RoboCasa: at the back of the cabinet's counter region).
    const dy = c.pos[1] - s * (c.fixture.widthM / 2 + 0.14 + rng.uniform(0, 0.1));
    const kinds = Object.keys(FOODS) as (keyof typeof FOODS)[];
    const distr = food('distr_counter', rng.pick(kinds), [rng.uniform(0.4, 0.56), dy, 0], rng.uniform(-1, 1));
    return {
      words: {},
      goal: { croissant: 'croissant', jam: 'jam', board: 'cutting_board' },
      objects: [board, ...plates, croiss, other, jam, distr],
      judge: (j) => verdict([inReceptacle(j, 'croissant', board), gripperFar(j, 'croissant'), inReceptacle(j, 'jam', board)]),
    };
  },
  async *solution(goal) {
    const b = yield* locate(goal.board);
    const [bx, by, bz] = b.position;
    // The croissant on the board's near half, the jar on its far half (the board's long side runs along x).
    const croiss = yield* pickFrom(goal.croissant, 0.16);
    yield* placeAt(croiss, [bx - 0.06, by, bz + croiss.halfHeight + 0.006], undefined, 0.16);
    // Back to the raised pose before reaching into the cabinet: from beside it the arm's elbow meets its top.
    yield* retreat();
    // Fingers closing along y: the palm's width then lies across the cabinet, clear of the shelf's edge behind the jar.
    const jam = yield* pickFrom(goal.jam, 0.14, false, undefined, 0);
    const cab = yield* locate('cabinet');
    yield call('move_to', { xyz: [cab.position[0] - 0.3, cab.position[1], 0.18], tolM: 0.02 });
    yield* placeAt(jam, [bx + 0.06, by, bz + jam.halfHeight + 0.006], undefined, 0.2);
    yield* settle();
    yield* retreat();
  },
});

export const breadTasks = [breadSelection];
