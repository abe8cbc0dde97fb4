/**
 * The mobile base, for the one task that drives it (NavigateKitchen): a task-level capability, so
 * every other kitchen task's robot, scene and primitives stay as they were (README, "The robot").
 *
 * The arm's `base` body gets three joints, slide x, slide y and yaw about the vertical (world
 * frame, in that order), driven by position servos, with the stand it sits on as its collision
 * footprint. RoboCasa's mobile base (PandaOmron) is holonomic: its base action is a forward,
 * sideways and turning velocity, so it can drive any straight line while it turns; `move_base`
 * gives a model that motion as a goal pose in the world frame. The arm's IK runs on the whole
 * model (kinematics.ts loads every qpos), so `move_to` and the other arm motions stay in the world
 * frame wherever the base stands: they are re-based on the moved base by construction, and
 * base.test.ts checks it. A drive that meets anything stops there, with an error that names it.
 */
import { z } from 'zod';
import type { PrimitiveDef } from '../../../../primitives/registry';
import { ARGUMENT_ERROR, EPISODE_FINISHED_ERROR, PrimitiveError, type ResultFieldDoc } from '../../../../primitives/types';
import { wrapAngle } from '../../robots/math3';
import type { RobotWorld } from '../../primitives/world';
import type { Sim } from '../../../../sim/sim';

export const BASE_BODY = 'base';
const JOINTS = ['base_x', 'base_y', 'base_yaw'] as const;
const ACTS = ['base_act_x', 'base_act_y', 'base_act_yaw'] as const;
/** The stand under the arm, its footprint 0.32 m square (half size), lifted 1.5 cm off the room's floor. */
export const STAND_HALF_M = 0.16;
const SPEED_MPS = 0.4;
const YAW_RATE_RPS = 1.0;
const CHUNK_STEPS = 25;
const SETTLE_MAX_STEPS = 1000;
const POS_TOL_M = 0.005;
const YAW_TOL_RAD = 0.005;

const STAND_GEOM = /<geom name="robot_stand"[^>]*\/>\s*/;
const BASE_OPEN = /<body name="base" pos="0 0 0" childclass="arm" gravcomp="1">/;

/** The kitchen scene with the arm on a driven base, starting at the origin facing +x, as every task's robot stands. */
export function withMobileBase(xml: string): string {
  for (const [re, what] of [
    [STAND_GEOM, 'the robot_stand geom'],
    [BASE_OPEN, 'the arm\'s <body name="base">'],
  ] as const)
    if (!re.test(xml)) throw new Error(`kitchen scene: expected ${what} (the mobile base replaces it)`);
  const joints =
    `<joint name="base_x" type="slide" axis="1 0 0" damping="60" armature="2"/>` +
    `<joint name="base_y" type="slide" axis="0 1 0" damping="60" armature="2"/>` +
    `<joint name="base_yaw" type="hinge" axis="0 0 1" damping="10" armature="0.5"/>` +
    `<geom name="robot_stand" type="box" size="${STAND_HALF_M} ${STAND_HALF_M} 0.44" pos="0 0 -0.445" mass="40" rgba="0.25 0.26 0.3 1" contype="2" conaffinity="1"/>`;
  const acts =
    `<position name="base_act_x" joint="base_x" kp="4000" kv="800" forcerange="-400 400"/>` +
    `<position name="base_act_y" joint="base_y" kp="4000" kv="800" forcerange="-400 400"/>` +
    `<position name="base_act_yaw" joint="base_yaw" kp="600" kv="80" forcerange="-200 200"/>`;
  const key = /<key name="home" qpos="([^"]*)" ctrl="([^"]*)"/;
  if (!key.test(xml)) throw new Error('kitchen scene: expected a home keyframe with qpos and ctrl');
  return xml
    .replace(STAND_GEOM, '')
    .replace(BASE_OPEN, (m) => `${m}\n      ${joints}`)
    .replace('</actuator>', `  ${acts}\n  </actuator>`)
    .replace(key, (_m, q: string, c: string) => `<key name="home" qpos="0 0 0 ${q}" ctrl="${c} 0 0 0"`);
}

export interface BasePose {
  position: [number, number];
  yaw: number;
}

/** The base body's measured pose: xy (m, world) and yaw about the vertical (rad, 0 facing +x). */
export function basePose(sim: Sim): BasePose {
  const id = sim.requireId('body', BASE_BODY);
  const x = sim.data.xpos as Float64Array;
  const m = sim.data.xmat as Float64Array;
  return { position: [x[3 * id], x[3 * id + 1]], yaw: Math.atan2(m[9 * id + 3], m[9 * id]) };
}

interface DriveState {
  from: number[];
  to: number[];
  tick: number;
  total: number;
}

/** Plays a straight-line base path into the three servos, one step at a time; kept in snapshots. */
class BaseDrive {
  private st: DriveState;
  readonly qadr: number[];
  private readonly act: number[];

  constructor(private readonly sim: Sim) {
    this.qadr = JOINTS.map((j) => (sim.model.jnt_qposadr as Int32Array)[sim.requireId('joint', j)]);
    this.act = ACTS.map((a) => sim.requireId('actuator', a));
    const ctrl = sim.data.ctrl as Float64Array;
    const q = this.act.map((a) => ctrl[a]);
    this.st = { from: q, to: q, tick: 0, total: 0 };
    sim.addController(() => this.tick());
    sim.addStateProvider({ key: 'mobile_base', save: () => this.st, load: (v) => (this.st = v as DriveState) });
  }

  private tick(): void {
    const st = this.st;
    if (st.tick < st.total) st.tick++;
    const a = st.total > 0 ? st.tick / st.total : 1;
    const ctrl = this.sim.data.ctrl as Float64Array;
    for (let i = 0; i < 3; i++) ctrl[this.act[i]] = st.from[i] + (st.to[i] - st.from[i]) * a;
  }

  /** The measured joint values (x, y, yaw unwrapped). */
  q(): number[] {
    const qpos = this.sim.data.qpos as Float64Array;
    return this.qadr.map((a) => qpos[a]);
  }

  start(to: number[], steps: number): void {
    this.st = { from: this.q(), to, tick: 0, total: steps };
  }

  /** Holds where the base is now. */
  hold(): void {
    const q = this.q();
    this.st = { from: q, to: q, tick: 0, total: 0 };
  }

  get moving(): boolean {
    return this.st.tick < this.st.total;
  }
}

/** The robot's geoms (every body under the base) touching anything else: [robot geom, other geom] pairs. */
function robotContacts(sim: Sim, baseId: number): [number, number][] {
  const root = sim.model.body_rootid as Int32Array;
  const body = sim.model.geom_bodyid as Int32Array;
  const out: [number, number][] = [];
  for (const c of sim.contacts()) {
    const r1 = root[body[c.geom1]] === baseId;
    const r2 = root[body[c.geom2]] === baseId;
    if (r1 !== r2) out.push(r1 ? [c.geom1, c.geom2] : [c.geom2, c.geom1]);
  }
  return out;
}

const r4 = (v: number): number => Number(v.toFixed(4));
const BASE_POSE_TYPE = '{ position: [x, y], yaw }';
const BASE_POSE_DOC =
  "The robot's base, measured: position (m, world frame) of the arm's mount point on the floor plan, and yaw (rad) " +
  'about the vertical, 0 when the robot faces world +x, π/2 facing +y. The arm is mounted on it and moves with it.';

export const BASE_STATE_FIELD: ResultFieldDoc = { name: 'base', type: BASE_POSE_TYPE, doc: BASE_POSE_DOC };

/** `move_base`, documented once here for both arms (one tool; `robo.move_base([x, y], yaw)` in cells). */
export function basePrimitives(world: RobotWorld): PrimitiveDef[] {
  const sim = world.sim;
  const drive = new BaseDrive(sim);
  const baseId = sim.requireId('body', BASE_BODY);
  const label = (g: number): string => {
    const name = sim.name('geom', g);
    const body = sim.name('body', (sim.model.geom_bodyid as Int32Array)[g]);
    return name ? `${name} (of ${body || 'the room'})` : body || 'the room';
  };
  return [
    {
      spec: {
        name: 'move_base',
        summary:
          "Drives the robot's base over the floor to a pose in the world frame: a straight line to [x, y] while it turns " +
          `evenly to yaw (the shorter way round), at up to ${SPEED_MPS} m/s and ${YAW_RATE_RPS} rad/s. The base is omnidirectional ` +
          '(it can move sideways and turn in place). The arm rides on it and keeps its joint angles, so the hand moves with the ' +
          'base; every other motion stays in the world frame wherever the base stands. The base and its stand (a ' +
          `${2 * STAND_HALF_M} m square under the arm's mount) collide with counters and fixtures: a drive that meets one stops at ` +
          'contact, holds there, and raises an error naming what it met.',
        positional: [
          {
            name: 'xy',
            type: '[x, y] metres, world frame',
            doc: "Where the base's mount point should stand (as `state().base.position` reports it).",
            schema: z.tuple([z.number().finite(), z.number().finite()]),
          },
          { name: 'yaw', type: 'number (rad)', doc: 'Heading to face: 0 faces world +x, π/2 faces +y (as `state().base.yaw`).', schema: z.number().finite() },
        ],
        options: [],
        returns: [
          { name: 'reached', type: 'boolean', doc: `Whether the base ended within ${POS_TOL_M} m and ${YAW_TOL_RAD} rad of the goal.` },
          { name: 'position', type: '[x, y]', doc: 'The base position measured at the end (m, world).' },
          { name: 'yaw', type: 'number', doc: 'The base yaw measured at the end (rad, -π..π).' },
          { name: 'steps', type: 'number', doc: 'Simulation steps the drive took (2 ms each).' },
        ],
        motion: true,
        errors: [
          ARGUMENT_ERROR,
          'PrimitiveError: the base or the arm met something on the way (the message names it and where the base stopped; it holds there).',
          EPISODE_FINISHED_ERROR,
        ],
      },
      run: async (args) => {
        const [gx, gy] = args.xy as [number, number];
        const q0 = drive.q();
        const to = [gx, gy, q0[2] + wrapAngle((args.yaw as number) - q0[2])];
        const distM = Math.hypot(to[0] - q0[0], to[1] - q0[1]);
        const durSec = Math.max(distM / SPEED_MPS, Math.abs(to[2] - q0[2]) / YAW_RATE_RPS, 0.1);
        const planned = Math.ceil(durSec / sim.timestepSec);
        // Contacts the robot already had (a hand resting on something) are not the drive's doing.
        const before = new Set(robotContacts(sim, baseId).map(([a, b]) => `${a}:${b}`));
        drive.start(to, planned);
        const abort = new AbortController();
        const hit: { met: [number, number] | null } = { met: null };
        const steps0 = sim.stepCount;
        await sim.stepChunked(planned + SETTLE_MAX_STEPS, {
          chunkSteps: CHUNK_STEPS,
          signal: abort.signal,
          onChunk: () => {
            hit.met = robotContacts(sim, baseId).find(([a, b]) => !before.has(`${a}:${b}`)) ?? null;
            if (hit.met) return abort.abort();
            const q = drive.q();
            if (!drive.moving && Math.hypot(q[0] - to[0], q[1] - to[1]) <= POS_TOL_M && Math.abs(q[2] - to[2]) <= YAW_TOL_RAD) abort.abort();
          },
        });
        if (hit.met) {
          const [mine, other] = hit.met;
          drive.hold();
          await sim.stepChunked(200, { chunkSteps: CHUNK_STEPS });
          const p = basePose(sim);
          throw new PrimitiveError(
            `move_base: the robot's ${label(mine)} met ${label(other)}; the base stopped at [${p.position.map((v) => v.toFixed(3)).join(', ')}], ` +
              `yaw ${p.yaw.toFixed(3)}, ${Math.hypot(p.position[0] - gx, p.position[1] - gy).toFixed(3)} m short of the goal, and holds there`,
          );
        }
        const p = basePose(sim);
        const q = drive.q();
        return {
          reached: Math.hypot(q[0] - to[0], q[1] - to[1]) <= POS_TOL_M && Math.abs(q[2] - to[2]) <= YAW_TOL_RAD,
          position: p.position.map(r4),
          yaw: r4(p.yaw),
          steps: sim.stepCount - steps0,
        };
      },
    },
  ];
}

export const baseState = (sim: Sim): BasePose => {
  const p = basePose(sim);
  return { position: [r4(p.position[0]), r4(p.position[1])], yaw: r4(p.yaw) };
};
