/**
 * RoboCasa's SteamInMicrowave (composite-seen): a vegetable from the sink basin into a bowl on the
 * counter, the bowl into the open microwave beside the sink, the door shut and the start button
 * pressed; judged as its class judges it. The robot stands in front of the pair, the microwave on
 * the sink's left (+y), so that its door, hinged on its left edge, opens away from the sink.
 */
import { call, locate, moveTo, placeAt, settle, type Steps } from '../../tasks/solutions/steps';
import { scatter } from '../../tasks/layout';
import { retreat } from './atomic';
import { kitchenTask } from './define';
import { inReceptacle, insideOf, verdict } from './judging';
import { bowl, distractor, PRODUCE, produce } from './objects';
import { basinSpot, spoutAside } from './sink';
import { pickFrom } from './steps';

/** RoboCasa's washable vegetables, by the members our produce has that sit in a bowl. */
const VEGETABLES: (keyof typeof PRODUCE)[] = ['broccoli', 'potato', 'garlic'];

/** How far from the robot's base (xy) the hand reaches down to a basin's floor, with a margin. */
const BASIN_REACH_M = 0.6;

const steamInMicrowave = kitchenTask({
  name: 'SteamInMicrowave',
  group: 'composite-seen',
  target: 'sink',
  beside: 'microwave',
  besideSide: 'left',
  phrasings: ({ vegetable }: { vegetable: string }) => [
    `Pick the ${vegetable} from the sink and place it in the bowl. Then pick the bowl and place it in the microwave. Then close the microwave door and press the start button.`,
    `Take the ${vegetable} from the sink, put it in the bowl, move the bowl into the microwave, shut the door, and press start.`,
    `Move the ${vegetable} from the sink to the bowl, place the bowl inside the microwave, close the door, and start it.`,
    `Put the ${vegetable} from the sink into the bowl, then place the bowl in the microwave, close it, and press the start button.`,
  ],
  defaultWords: { vegetable: 'broccoli' },
  fixtures: () => ({ sinkHandle: 0, open: { microwave: 1 } }),
  instance(rng, k) {
    const sink = k.fixture('sink');
    const mw = k.fixture('microwave');
    const kind = rng.pick(VEGETABLES);
    const r = PRODUCE[kind].sizeM[0] / 2;
    // RoboCasa's region: 0.3 m along the sink and 0.2 m deep at the basin's back (`pos=(0, 1)`),
    // the part of it within the arm's reach at the basin's floor (the robot stands at the pair's
    // middle, so the sink's far half is beyond it).
    let spot = basinSpot(rng, k, r, [0.2, 0.3]);
    for (let i = 0; i < 100 && Math.hypot(spot[0], spot[1]) > BASIN_REACH_M; i++) spot = basinSpot(rng, k, r, [0.2, 0.3]);
    const veg = produce('vegetable', kind, spot, rng.uniform(-1, 1));
    // The bowl on the counter beside the sink (`loc="left_right"`), towards its front: on the
    // counter between the basin and the microwave.
    const rim = sink.pos[1] + 0.22;
    const side = mw.pos[1] - mw.fixture.widthM / 2;
    const [[bx, by]] = scatter(rng, [0.075], { x: [0.33, 0.58], y: [rim + 0.005, side - 0.005] });
    const container = bowl('bowl', [bx, by, 0]);
    // Distractors beside the microwave (beyond its door's sweep) and beside the sink.
    const [[dx0, dy0]] = scatter(rng, [0.04], { x: [0.4, 0.6], y: [mw.pos[1] + mw.fixture.widthM / 2 + 0.1, mw.pos[1] + mw.fixture.widthM / 2 + 0.3] });
    const [[dx1, dy1]] = scatter(rng, [0.04], {
      x: [0.36, 0.6],
      y: [sink.pos[1] - sink.fixture.widthM / 2 - 0.3, sink.pos[1] - sink.fixture.widthM / 2 - 0.06],
    });
    return {
      words: { vegetable: veg.words },
      goal: { object: 'vegetable', container: 'bowl' },
      objects: [veg, container, distractor(rng, 'distr_counter_0', [dx0, dy0, 0]), distractor(rng, 'distr_counter_1', [dx1, dy1, 0])],
      judge: (j, rt) =>
        verdict([
          inReceptacle(j, 'vegetable', container),
          insideOf(j, rt, container, 'microwave'),
          { ok: rt.isClosed('microwave'), says: `the microwave door is ${(rt.norm('microwave', 'door') * 100).toFixed(2)} % open (needs at most 0.5 %)` },
          { ok: rt.microwaveOn, says: `the microwave is ${rt.microwaveOn ? 'on' : 'off'}` },
        ]),
    };
  },
  async *solution(goal) {
    const v = yield* locate(goal.object);
    yield* spoutAside(v.position[1]);
    const veg = yield* pickFrom(goal.object, 0.2, false, undefined, 0);
    const b = yield* locate(goal.container);
    // Into the bowl 1 cm beyond its centre: the finger that later pinches its near wall stays clear.
    yield* placeAt(veg, [b.position[0] + 0.01, b.position[1], b.position[2] + veg.halfHeight + 0.012], undefined, 0.2);
    yield* settle(0.3);
    const held = yield* pickFrom(goal.container, 0.14, true);
    const m = yield* locate('microwave');
    const [mx, my] = m.position;
    // In through the open front, low, just clear of the control panel on its right (the side
    // nearest the robot's centre); out the same way.
    const cy = my - 0.02;
    const inZ = 0.025 - held.offsetZ;
    // Back first, so that the bowl (14 cm ahead of the hand) clears the microwave's side.
    yield* moveTo([mx - 0.36, b.position[1], 0.12], { tolM: 0.02 });
    yield* moveTo([mx - 0.3, cy, Math.max(inZ, 0.12)], { tolM: 0.02 });
    yield* moveTo([mx - 0.3, cy, inZ], { tolM: 0.01 });
    // As deep as the forearm allows: it rises nearly straight from the wrist and meets the
    // microwave's roof when the hand is 21 cm in front of its centre; the bowl, 6 cm ahead of the
    // hand, is then 1.5 cm inside RoboCasa's margin.
    yield* moveTo([mx - 0.205, cy, inZ], { tolM: 0.015 });
    yield call('release', {});
    // Up along the forearm (up and a little back) until the inner finger clears the bowl's wall, then out.
    yield* moveTo([mx - 0.225, cy, inZ + 0.05], { tolM: 0.02 });
    const out = yield* moveTo([mx - 0.36, cy, inZ + 0.05], { tolM: 0.02 });
    // `close` turns the wrist straight to the open door's yaw (−1.75 rad), which from a wrist turned
    // the other way (the bowl's grip, ±π/2) runs into its joint limit: the wrist is turned there first.
    yield* turnWrist(out.wristYaw, -1.2, [mx - 0.36, cy, 0.2]);
    yield call('close', { target: 'microwave' });
    yield call('press', { target: 'microwave_start_button' });
    yield* retreat();
  },
});

/**
 * Turns the wrist from its joint angle `from` to `to` at `at`, in steps under a quarter turn (each
 * asked yaw is then the nearest of its two equivalent grips, so the wrist goes the way asked).
 */
async function* turnWrist(from: number, to: number, at: [number, number, number]): Steps {
  const n = Math.max(1, Math.ceil(Math.abs(to - from) / 1.3));
  for (let i = 1; i <= n; i++) yield* moveTo(at, { yaw: from + ((to - from) * i) / n, tolM: 0.02 });
}

export const steamTasks = [steamInMicrowave];
