/**
 * RoboCasa's PreSoakPan (composite-seen): the pan and the sponge from the counter beside the sink
 * into its basin, then the water on; judged as its class judges it (both wholly inside the sink,
 * the water on, the gripper far from both).
 */
import type { Vec3 } from '../../robots/math3';
import { call, locate, moveTo, placeAt, settle } from '../../tasks/solutions/steps';
import { retreat } from './atomic';
import { kitchenTask } from './define';
import { gripperFar, insideOf, verdict } from './judging';
import { pan, sponge, type KitchenObject } from './objects';
import { spoutAside } from './sink';
import { pickFrom } from './steps';

/** Our pan (objects.ts): its handle's middle third, 13 cm from the pan's centre, is where it is gripped. */
const HANDLE_GRIP_M = 0.13;
/** The handle's height above the pan's floor (its centre line). */
const HANDLE_Z_M = 0.03;

/** The pan turned about the vertical by `yaw` (objects.ts builds it with its handle towards −x). */
function turned(o: KitchenObject, yaw: number): KitchenObject {
  const q = [Math.cos(yaw / 2), 0, 0, Math.sin(yaw / 2)];
  const quat = q.map((v) => Number(v.toFixed(6))).join(' ');
  return { ...o, xml: o.xml.replace(/quat="[^"]*"/, `quat="${quat}"`), qpos: [...o.qpos.slice(0, 3), ...q] };
}

interface FixtureInterior {
  name: string;
  interiors: { center: Vec3; sizeM: Vec3 }[];
}

const preSoakPan = kitchenTask({
  name: 'PreSoakPan',
  group: 'composite-seen',
  target: 'sink',
  phrasings: () => [
    'Pick the pan and sponge and place them into the sink. Then turn on the water.',
    'Grab the pan and sponge, put them into the sink, and then switch on the water.',
    'Place the pan and sponge inside the sink, then turn on the faucet to run water.',
    'Pick the sponge and the pan, place them in the sink, and run water over them.',
  ],
  defaultWords: {},
  fixtures: () => ({ sinkHandle: 0 }),
  instance(rng, k) {
    const sink = k.fixture('sink');
    const w = sink.fixture.widthM / 2;
    // Both on the counter beside the sink (`loc="left_right"`), one each side: the pan with its
    // handle towards the sink (along the basin's long side, the way it goes in), within reach.
    const side = rng.next() < 0.5 ? 1 : -1;
    const panAt: Vec3 = [rng.uniform(0.47, 0.53), sink.pos[1] + side * (w + 0.135 + rng.uniform(0, 0.03)), 0];
    const spongeAt: Vec3 = [rng.uniform(0.4, 0.52), sink.pos[1] - side * (w + 0.06 + rng.uniform(0, 0.06)), 0];
    const p = turned(pan('obj1', panAt), side * (Math.PI / 2) + rng.uniform(-0.15, 0.15));
    const s = sponge('obj2', spongeAt, rng.uniform(-0.4, 0.4));
    return {
      words: {},
      goal: { pan: 'obj1', sponge: 'obj2' },
      objects: [p, s],
      judge: (j, rt) =>
        verdict([
          { ok: rt.waterOn(), says: `the water is ${rt.waterOn() ? 'on' : 'off'}` },
          insideOf(j, rt, p, 'sink'),
          insideOf(j, rt, s, 'sink'),
          gripperFar(j, 'obj1'),
          gripperFar(j, 'obj2'),
        ]),
    };
  },
  async *solution(goal) {
    const st = (yield call('state', {})) as { fixtures: FixtureInterior[] };
    const basin = st.fixtures.find((f) => f.name === 'sink')?.interiors[0];
    if (!basin) throw new Error('solution: the sink reports no basin');
    const [bx, by] = basin.center;
    const floorZ = basin.center[2] - basin.sizeM[2] / 2;
    // The pan by its handle, fingers across it; the spout swung away from its side first (its end
    // hangs over the basin's middle at the height the pan is carried).
    // The water first (the judge asks for no order): the lever is then swept with nothing in the
    // basin, and the hand rises off it before going anywhere (a sideways move from it swings the spout).
    yield call('turn', { target: 'sink_handle', setting: 'on' });
    const h = yield* locate('sink_handle');
    yield* moveTo([h.position[0], h.position[1], 0.35], { tolM: 0.02 });
    const p = yield* locate(goal.pan);
    const [px, py, pz] = p.position;
    yield* spoutAside(py);
    // The handle points away from the pan's −x side (its yaw as `find` reports it).
    const [hx, hy] = [-Math.cos(p.yaw), -Math.sin(p.yaw)];
    const g: Vec3 = [px + hx * HANDLE_GRIP_M, py + hy * HANDLE_GRIP_M, pz + HANDLE_Z_M];
    yield* moveTo([g[0], g[1], 0.15], { yaw: p.yaw, gripper: 'OPEN' });
    yield* moveTo(g, { tolM: 0.008 });
    const held = (yield call('grasp', {})) as { success: boolean };
    if (!held.success) throw new Error('solution: could not grip the pan by its handle');
    const up = yield* moveTo([g[0], g[1], 0.32], { tolM: 0.02 });
    // Carried straight over the basin (the handle stays along its long side, 0.44 m: pan and handle
    // are 0.33 m), the pan's centre 5 cm to its own side of the basin's middle and 3 cm to its front.
    const hung = yield* locate(goal.pan);
    const off = [hung.position[0] - up.position[0], hung.position[1] - up.position[1], hung.position[2] - up.position[2]];
    const side = py > by ? 1 : -1;
    const [tx, ty] = [bx - 0.03 - off[0], by + side * 0.05 - off[1]];
    yield* moveTo([tx, ty, 0.32], { tolM: 0.02 });
    // Down until the pan, hanging nose-down from the handle, is just over the basin's floor.
    yield* moveTo([tx, ty, floorZ - off[2] + 0.06], { tolM: 0.015 });
    yield call('release', {});
    const out = yield* moveTo([tx, ty, 0.2], { tolM: 0.02 });
    // The wrist unwound: the pan's grip can leave it a quarter turn or more round, and from there
    // the sponge's grip yaw can lie past its limit.
    if (Math.abs(out.wristYaw) > 1.2) yield call('rotate_wrist', { deltaYaw: -out.wristYaw });
    yield* settle(0.4);
    // The sponge into the basin's other half, at its front (clear of the spout and the faucet's lever at the back).
    const sp = yield* pickFrom(goal.sponge, 0.22);
    yield* placeAt(sp, [bx - 0.08, by - side * 0.13, floorZ + 0.006 + sp.halfHeight + 0.03], undefined, 0.22);
    yield* retreat();
  },
});

export const presoakTasks = [preSoakPan];
