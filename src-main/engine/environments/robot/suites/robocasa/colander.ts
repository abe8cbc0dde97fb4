/**
 * RoboCasa's WashFruitColander (composite-unseen,
 * `composite/washing_fruits_and_vegetables/wash_fruit_colander.py`): a colander and one to three
 * fruits on the counter beside the sink; the colander into the basin, the fruit into it, the water
 * on over it. The first phrasing is RoboCasa's instruction, the other three its variations.
 */
import type { Vec3 } from '../../robots/math3';
import { call, locate, moveTo, settle, type Steps } from '../../tasks/solutions/steps';
import { retreat } from './atomic';
import { kitchenTask } from './define';
import { inReceptacle, verdict } from './judging';
import { food, receptacle, type KitchenObject } from './objects';
import { nearSink, underWater } from './sink';
import { pickFrom } from './steps';

/** RoboCasa's fruit group, by the members our food group has. */
const FRUIT = ['apple', 'lemon', 'orange'] as const;

/** A colander: a wide perforated bowl (the holes are not modelled; water is not simulated). */
export const colander = (name: string, pos: Vec3): KitchenObject => receptacle(name, 'colander', 'colander', 0.08, 0.05, '0.78 0.8 0.84 1', pos, 0.25);

/** Names as a sentence lists them: "apple", "apple and lemon", "apple, lemon and orange". */
const wordList = (w: readonly string[]): string => (w.length < 2 ? (w[0] ?? '') : `${w.slice(0, -1).join(', ')} and ${w[w.length - 1]}`);

/** Where the colander's centre goes in the basin (sink frame): under the centred spout's end (x −0.06), 3 cm in front of it. */
const COLANDER_AT: Vec3 = [-0.09, 0, -0.174];

const washFruitColander = kitchenTask({
  name: 'WashFruitColander',
  group: 'composite-unseen',
  target: 'sink',
  phrasings: ({ fruit }: { fruit: string }) => [
    `Put the colander in the sink, put the ${fruit} in the colander, and turn on the sink faucet and pour water over the colander.`,
    `Place the colander inside the sink, put the ${fruit} in, and wash them by pouring water from the faucet over the colander.`,
    `Place the colander in the sink, put the ${fruit} in the colander, and run water from the faucet over it.`,
    `Put the colander in the sink, place the ${fruit} in it, and let water flow over the colander.`,
  ],
  defaultWords: { fruit: 'apple' },
  fixtures: () => ({ sinkHandle: 0 }),
  instance(rng, k) {
    const count = rng.int(1, 3);
    // RoboCasa samples the colander and each fruit on the counter left or right of the sink; here the
    // colander on one side, the fruit on the other, within the hand's reach.
    const [[cx, cy]] = nearSink(rng, k, [0.084], 0.22);
    const sinkY = k.fixture('sink').pos[1];
    const side = cy > sinkY ? -1 : 1;
    let spots: [number, number][] = [];
    for (let t = 0; t < 20; t++) {
      spots = nearSink(rng, k, Array(count).fill(0.032), 0.16);
      if ((spots[0][1] - sinkY) * side > 0) break;
    }
    const fruits = spots.map(([x, y], i) => food(`fruit${i}`, rng.pick([...FRUIT]), [x, y, 0], rng.uniform(-1, 1)));
    const col = colander('colander', [cx, cy, 0]);
    return {
      words: { fruit: wordList(fruits.map((f) => f.words)) },
      goal: { colander: 'colander', fruits: fruits.map((f) => f.name).join(',') },
      objects: [col, ...fruits],
      judge: (j, rt) => {
        const wet = underWater(j.sim, 'colander', col.radiusM, rt.waterOn());
        return verdict([
          ...fruits.map((f) => inReceptacle(j, f.name, col)),
          {
            ok: wet,
            says: wet ? 'the colander is under the running water' : `the colander is not under the running water${rt.waterOn() ? '' : ' (the water is off)'}`,
          },
        ]);
      },
    };
  },
  async *solution(goal) {
    const sink = yield* locate('sink');
    const [sx, sy] = sink.position;
    // The sink is unrotated in every kitchen: its frame's x is the world's.
    const target: Vec3 = [sx + COLANDER_AT[0], sy + COLANDER_AT[1], COLANDER_AT[2]];
    yield* carryColander(goal.colander, target);
    const fruits = String(goal.fruits).split(',');
    // Spread over the colander's floor (the fingers, opening to 8 cm, stay inside its wall), the spout
    // swung aside meanwhile: centred, its end hangs over the colander's back half.
    const drops: [number, number][] = [
      [-0.035, 0],
      [0.015, 0.02],
      [0.015, -0.02],
    ];
    yield call('turn', { target: 'sink_spout', setting: 'left' });
    for (let i = 0; i < fruits.length; i++) {
      // A fruit that slipped out on the way (it then lies in the basin or on the counter) is picked again.
      for (let attempt = 0; attempt < 3; attempt++) {
        const held = yield* pickFrom(fruits[i], 0.3, false, undefined, 0);
        const c = yield* locate(goal.colander);
        const [x, y] = [c.position[0] + drops[i][0], c.position[1] + drops[i][1]];
        // Over the basin above the spout's height (its bar runs 0.20–0.235 m over the counter).
        yield* moveTo([x, y, 0.3], {});
        yield* moveTo([x, y, c.position[2] + 0.006 + held.halfHeight + 0.025 - held.offsetZ], { tolM: 0.01 });
        yield call('release', {});
        yield* moveTo([x, y, 0.3], {});
        const f = yield* locate(fruits[i]);
        const c2 = yield* locate(goal.colander);
        if (Math.hypot(f.position[0] - c2.position[0], f.position[1] - c2.position[1]) < c2.sizeM[0] / 2) break;
      }
    }
    yield call('turn', { target: 'sink_spout', setting: 'center' });
    yield call('turn', { target: 'sink_handle', setting: 'on' });
    const h = yield* locate('sink_handle');
    yield* moveTo([h.position[0], h.position[1], 0.35], { tolM: 0.02 });
    yield* settle();
    yield* retreat();
  },
});

/** Picks the colander by its near wall and sets it down with its centre at `at` (a floor point). */
async function* carryColander(name: string, at: Vec3): Steps {
  const held = yield* pickFrom(name, 0.16, true);
  const c = yield* locate(name);
  const gripDx = -c.sizeM[0] / 2 + 0.004;
  const x = at[0] + gripDx;
  yield* moveTo([x, at[1], 0.16], {});
  yield* moveTo([x, at[1], at[2] + 0.01 - held.offsetZ], { tolM: 0.01 });
  yield call('release', {});
  yield* moveTo([x - 0.02, at[1], at[2] + 0.06 - held.offsetZ], { tolM: 0.02 });
  yield* moveTo([x - 0.02, at[1], 0.2], {});
  // The wrist back to yaw 0 in two turns: from a quarter turn, yaw 0 and π are equally near and the far one is past joint7's limit.
  yield* moveTo([x - 0.02, at[1], 0.2], { yaw: 0.8 });
  yield* moveTo([x - 0.02, at[1], 0.2], { yaw: 0 });
}

export const colanderTasks = [washFruitColander];
