/** Motion primitives of the robot arms: move_to, rotate_wrist, set_gripper, grasp, release. */
import { z } from 'zod';
import { PlanError, type ArmController, type HandPose } from '../robots/controller';
import { type Vec3, wrapAngle } from '../robots/math3';
import { Xyz, type PrimitiveDef } from '../../../primitives/registry';
import { ARGUMENT_ERROR, EPISODE_FINISHED_ERROR, PrimitiveError, type NamedArgs, type ParamDoc } from '../../../primitives/types';
import { heldObject, type RobotWorld } from './world';
import { FLOOR_DOC, lowestTcpZ } from './floor';

const CHUNK_STEPS = 25;
const SETTLE_MAX_STEPS = 600;
export const OPEN_M = 0.08;
/** What 'OPEN' opens an arm's gripper to: OPEN_M, or the arm's full stroke where that is less (the controller clamps to it anyway). */
export const openOf = (arm: ArmController): number => Math.min(OPEN_M, arm.spec.maxOpeningM);
export { MIN_TCP_Z_M } from './floor';
export const MAX_REACH_M = 1.05;

/** The `arm` option: only the bimanual robot has it (a single arm is implied otherwise). */
export function armOption(world: RobotWorld): ParamDoc[] {
  if (world.arms.size < 2) return [];
  const names = [...world.arms.keys()];
  return [
    {
      name: 'arm',
      type: names.map((n) => `'${n}'`).join(' | '),
      doc: 'Which arm (required: this robot has two).',
      schema: z.enum(names as [string, ...string[]]),
    },
  ];
}

export function pickArm(world: RobotWorld, primitive: string, args: NamedArgs): ArmController {
  if (world.arms.size === 1) return [...world.arms.values()][0];
  const name = args.arm;
  if (typeof name !== 'string')
    throw new PrimitiveError(`${primitive}: this robot has two arms; pass arm: ${[...world.arms.keys()].map((n) => `'${n}'`).join(' or ')}`);
  const arm = world.arms.get(name);
  if (!arm) throw new PrimitiveError(`${primitive}: no arm "${name}" (arms: ${[...world.arms.keys()].join(', ')})`);
  return arm;
}

/** Steps in chunks until `done()` (checked between chunks, after `minSteps`) or `maxSteps`. */
export async function runUntil(world: RobotWorld, maxSteps: number, minSteps: number, done: () => boolean): Promise<number> {
  const abort = new AbortController();
  let stepped = 0;
  return world.sim.stepChunked(maxSteps, {
    chunkSteps: CHUNK_STEPS,
    signal: abort.signal,
    onChunk: () => {
      stepped += CHUNK_STEPS;
      if (stepped >= minSteps && done()) abort.abort();
    },
  });
}

const dist3 = (a: Vec3, b: Vec3): number => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const round = (v: number, digits = 4): number => Number(v.toFixed(digits));
const roundVec = (v: readonly number[]): number[] => v.map((x) => round(x));

/** A parallel gripper is symmetric: yaw and yaw ± π grip alike, so pick the one nearest `current`. */
export function nearestEquivalentYaw(target: number, current: number): number {
  const d = wrapAngle(target - current);
  const alt = d > Math.PI / 2 ? d - Math.PI : d < -Math.PI / 2 ? d + Math.PI : d;
  return current + alt;
}

/** Normalises a gripper yaw to (-π/2, π/2]: the range the primitives report. */
export const reportYaw = (yaw: number): number => {
  let y = wrapAngle(yaw);
  if (y > Math.PI / 2) y -= Math.PI;
  if (y <= -Math.PI / 2) y += Math.PI;
  return round(y);
};

/** Whether reportYaw folds this yaw by a half turn (then the pitch the primitives speak of changes sign). */
const folds = (yaw: number): boolean => Math.abs(wrapAngle(yaw - reportYaw(yaw))) > Math.PI / 2;

/** The hand's pitch as the primitives report it: relative to the reported yaw. */
export const reportPitch = (yaw: number, pitch: number): number => round(folds(yaw) ? -pitch : pitch);

/** Largest hand pitch a primitive accepts (rad): past horizontal (π/2) the fingertips point upward, as pouring needs. */
export const MAX_PITCH_RAD = 2.5;

export const PITCH_DOC =
  'Hand tilt (rad) about the finger axis: 0 points the fingers straight down; positive swings the fingertips ' +
  'toward the direction (cos yaw, sin yaw) on the table (away from the robot at yaw 0), π/2 horizontal, beyond it upward ' +
  '(e.g. to pour out what the hand holds), at most ±2.5; negative the other way. ' +
  'Default: keep the current pitch.';

/**
 * The commanded (yaw, pitch) for a requested one, among the two equivalent grips (yaw, pitch) and
 * (yaw ± π, -pitch), the one whose yaw is nearest the current. The yaw a caller gives or keeps is
 * the reported one, so its pitch is relative to that. `pitch` undefined: keep the commanded pitch,
 * and an untilted hand is planned exactly as before pitch existed.
 */
export function gripTarget(current: HandPose, yaw: number | undefined, pitch: number | undefined): { yaw: number; pitch?: number } {
  if (pitch === undefined && current.pitch === 0) return { yaw: yaw === undefined ? current.yaw : nearestEquivalentYaw(yaw, current.yaw) };
  const askedYaw = yaw ?? reportYaw(current.yaw);
  const askedPitch = pitch ?? reportPitch(current.yaw, current.pitch);
  const y = nearestEquivalentYaw(askedYaw, current.yaw);
  const flipped = Math.abs(wrapAngle(y - askedYaw)) > Math.PI / 2;
  return { yaw: y, pitch: flipped ? -askedPitch : askedPitch };
}

/** What every arm report carries about the hand's orientation (state, and the end of each motion). */
export function handReport(arm: ArmController): { yaw: number; pitch: number; wristYaw: number; wristYawRange: [number | null, number | null] } {
  const yaw = arm.tcpYaw();
  const [cw, ccw] = arm.wristYawRoom();
  const commanded = arm.commandedPose().yaw;
  const bound = (v: number): number | null => (Number.isFinite(v) ? round(v) : null);
  return {
    yaw: reportYaw(yaw),
    pitch: reportPitch(yaw, arm.tcpPitch()),
    wristYaw: round(yaw),
    wristYawRange: [bound(commanded - cw), bound(commanded + ccw)],
  };
}

export const HAND_DOCS = {
  yaw: 'gripper yaw (rad, -π/2..π/2: the fingers close along (-sin yaw, cos yaw); a parallel gripper grips alike at yaw ± π)',
  pitch: 'hand pitch (rad) relative to that yaw: 0 pointing straight down, π/2 fingertips horizontal toward (cos yaw, sin yaw)',
  wristYaw: "the wrist's real yaw (rad, -π..π): yaw before folding by a half turn; rotate_wrist's deltaYaw counts from it",
  wristYawRange:
    "[lowest, highest] wristYaw the wrist can turn to from here (rad, estimated from its last joint's limits; may pass ±π; " +
    'null: unlimited): a turn beyond it fails with a joint-limit error',
} as const;

function checkTarget(world: RobotWorld, arm: ArmController, name: string, xyz: Vec3): void {
  const lowest = lowestTcpZ(world.sim, xyz[0], xyz[1]);
  if (xyz[2] < lowest) throw new PrimitiveError(`${name}: z = ${xyz[2]} m is below the lowest TCP height there, ${round(lowest)} m (${FLOOR_DOC})`);
  if (!arm.spec.baseBody) return;
  const base = world.sim.data.xpos as Float64Array;
  const baseId = world.sim.requireId('body', arm.spec.baseBody);
  const d = Math.hypot(xyz[0] - base[3 * baseId], xyz[1] - base[3 * baseId + 1], xyz[2] - base[3 * baseId + 2]);
  if (d > MAX_REACH_M)
    throw new PrimitiveError(`${name}: [${xyz.join(', ')}] is ${d.toFixed(2)} m from the base of the ${arm.spec.name}, beyond its reach (${MAX_REACH_M} m)`);
}

function openingOf(v: unknown, arm: ArmController): number {
  if (v === 'OPEN') return openOf(arm);
  if (v === 'CLOSE') return 0;
  if (typeof v === 'number') {
    if (v < 0 || v > arm.spec.maxOpeningM) throw new PrimitiveError(`gripper opening ${v} m is outside 0..${arm.spec.maxOpeningM} m`);
    return v;
  }
  throw new PrimitiveError(`gripper must be a number of metres, 'OPEN' or 'CLOSE', got ${JSON.stringify(v)}`);
}

const Gripper = z.union([z.number().finite(), z.literal('OPEN'), z.literal('CLOSE')]);

/** Plans and runs a move of one arm; shared by move_to and rotate_wrist. */
async function moveArm(
  world: RobotWorld,
  arm: ArmController,
  name: string,
  xyz: Vec3,
  grip: { yaw: number; pitch?: number },
  tolM: number,
  maxSteps: number | undefined,
) {
  let planSteps: number;
  try {
    planSteps = arm.planMove(xyz, grip.yaw, grip.pitch);
  } catch (e) {
    if (e instanceof PlanError) throw new PrimitiveError(`${name}: ${e.message}`);
    throw e;
  }
  const limit = maxSteps ?? planSteps + SETTLE_MAX_STEPS;
  let last = arm.tcpPos();
  const steps = await runUntil(world, limit, 0, () => {
    const now = arm.tcpPos();
    const still = dist3(now, last) < 0.0004;
    last = now;
    return !arm.moving && still && dist3(now, xyz) < tolM;
  });
  // A motion that ran out of steps stops here rather than finishing during the next call.
  arm.halt();
  const finalPos = arm.tcpPos();
  const distanceM = dist3(finalPos, xyz);
  return { reached: distanceM <= tolM, distanceM: round(distanceM), steps, position: roundVec(finalPos), ...handReport(arm) };
}

/** Closes or opens the gripper and waits until the fingers stop. */
async function settleGripper(world: RobotWorld, arm: ArmController, openingM: number, maxSteps = 500): Promise<number> {
  arm.setGripper(openingM);
  let last = arm.openingM();
  return runUntil(world, maxSteps, 100, () => {
    const now = arm.openingM();
    const still = Math.abs(now - last) < 0.0002;
    last = now;
    return still;
  });
}

function heldName(world: RobotWorld, arm: ArmController): string | null {
  return heldObject(world, arm);
}

export function motionPrimitives(world: RobotWorld): PrimitiveDef[] {
  const armOpt = armOption(world);
  const maxOpen = [...world.arms.values()][0].spec.maxOpeningM;
  const openDocM = Math.min(OPEN_M, maxOpen);
  const gripperDoc = `opening in metres (0..${maxOpen}), 'OPEN' (${openDocM} m, fully open) or 'CLOSE' (0)`;
  const armErrors = world.arms.size > 1 ? [`PrimitiveError: arm is missing or not one of ${[...world.arms.keys()].join(', ')}.`] : [];
  const finished = EPISODE_FINISHED_ERROR;
  const gripperError = `PrimitiveError: the gripper opening is outside 0..${maxOpen} m.`;
  const unreachable =
    'PrimitiveError: no straight-line path with the hand at that yaw and pitch reaches the target ' +
    "(outside the arm's workspace or joint limits); the message gives the first unreachable point and the joints at a limit.";
  const moveResult = [
    { name: 'reached', type: 'boolean', doc: 'Whether the TCP ended within tolM of the target.' },
    { name: 'distanceM', type: 'number', doc: 'Final distance from the TCP to the target (m).' },
    { name: 'steps', type: 'number', doc: 'Simulation steps the motion took (2 ms each).' },
    { name: 'position', type: '[x, y, z]', doc: 'Measured TCP position at the end (m).' },
    { name: 'yaw', type: 'number', doc: `Measured ${HAND_DOCS.yaw} at the end.` },
    { name: 'pitch', type: 'number', doc: `Measured ${HAND_DOCS.pitch}.` },
    { name: 'wristYaw', type: 'number', doc: `Measured ${HAND_DOCS.wristYaw}.` },
    { name: 'wristYawRange', type: '[number | null, number | null]', doc: `The ${HAND_DOCS.wristYawRange}.` },
  ];
  const pitchOption = (name: string, doc = PITCH_DOC) => ({
    name,
    type: 'number (rad)',
    doc,
    schema: z.number().min(-MAX_PITCH_RAD).max(MAX_PITCH_RAD),
    optional: true as const,
  });
  return [
    {
      spec: {
        name: 'move_to',
        summary:
          'Moves the TCP (the tool centre point, defined under Workspace) in a straight line to a ' +
          'point, hand pointing down unless a pitch tilts it (yaw and pitch turn evenly along the way). ' +
          'Not reaching the target within the step budget is a result (reached: false), not an error.',
        positional: [{ name: 'xyz', type: '[x, y, z] metres, world frame (table top is z = 0)', doc: 'Target TCP position.', schema: Xyz }],
        options: [
          {
            name: 'yaw',
            type: 'number (rad)',
            doc: 'Gripper yaw about the vertical: 0 closes the fingers along world y, π/2 along x. Default: keep the current yaw.',
            schema: z.number().finite(),
            optional: true,
          },
          pitchOption('pitch'),
          { name: 'gripper', type: "number | 'OPEN' | 'CLOSE'", doc: `Sets the gripper before moving: ${gripperDoc}.`, schema: Gripper, optional: true },
          { name: 'tolM', type: 'number (m)', doc: 'Distance that counts as reached; default 0.005.', schema: z.number().positive().max(0.2), optional: true },
          {
            name: 'maxSteps',
            type: 'number',
            doc: 'Step budget of the motion; default: the planned duration plus 1.2 s to settle.',
            schema: z.number().int().positive().max(100_000),
            optional: true,
          },
          ...armOpt,
        ],
        returns: moveResult,
        motion: true,
        errors: [
          ARGUMENT_ERROR,
          ...armErrors,
          `PrimitiveError: the target z is below the lowest TCP height (${FLOOR_DOC}).`,
          `PrimitiveError: the target is more than ${MAX_REACH_M} m from the arm's base (beyond its reach).`,
          unreachable,
          gripperError,
          finished,
        ],
      },
      run: async (args) => {
        const arm = pickArm(world, 'move_to', args);
        const xyz = args.xyz as Vec3;
        checkTarget(world, arm, 'move_to', xyz);
        const grip = gripTarget(arm.commandedPose(), args.yaw as number | undefined, args.pitch as number | undefined);
        if (args.gripper !== undefined) arm.setGripper(openingOf(args.gripper, arm));
        return moveArm(world, arm, 'move_to', xyz, grip, (args.tolM as number | undefined) ?? 0.005, args.maxSteps as number | undefined);
      },
    },
    {
      spec: {
        name: 'wait',
        summary: 'Lets simulated time pass with the arms holding still (e.g. for objects to settle).',
        positional: [],
        options: [
          { name: 'seconds', type: 'number', doc: 'Simulated seconds to wait, 0.002..10; default 0.5.', schema: z.number().min(0.002).max(10), optional: true },
        ],
        returns: [{ name: 'steps', type: 'number', doc: 'Simulation steps taken.' }],
        motion: true,
        errors: [ARGUMENT_ERROR, finished],
      },
      run: async (args) => {
        const seconds = (args.seconds as number | undefined) ?? 0.5;
        const steps = await runUntil(world, world.sim.stepsIn(seconds), Infinity, () => false);
        return { steps };
      },
    },
    {
      spec: {
        name: 'rotate_wrist',
        summary: 'Turns the gripper about the vertical (yaw) and/or tilts it (pitch) without moving the TCP.',
        positional: [],
        options: [
          {
            name: 'targetYaw',
            type: 'number (rad)',
            doc: 'Absolute yaw (0: fingers close along world y). Give this or deltaYaw.',
            schema: z.number().finite(),
            optional: true,
          },
          {
            name: 'deltaYaw',
            type: 'number (rad)',
            doc:
              "Turn relative to the wrist's real yaw (wristYaw; positive: counter-clockwise seen from above). A turn of more than π goes the " +
              'shorter way round; one that would leave wristYawRange fails.',
            schema: z.number().finite(),
            optional: true,
          },
          pitchOption('pitch', PITCH_DOC.replace('Default: keep the current pitch.', 'Absolute, like targetYaw; default: keep the current pitch.')),
          ...armOpt,
        ],
        returns: moveResult,
        motion: true,
        errors: [
          ARGUMENT_ERROR,
          ...armErrors,
          'PrimitiveError: both targetYaw and deltaYaw were given, or none of targetYaw, deltaYaw and pitch.',
          'PrimitiveError: the turn leaves the joint limits (the message then gives wristYawRange; the same grip is a half turn the other way).',
          unreachable,
          finished,
        ],
      },
      run: async (args) => {
        const arm = pickArm(world, 'rotate_wrist', args);
        const hasT = args.targetYaw !== undefined;
        const hasD = args.deltaYaw !== undefined;
        const pitch = args.pitch as number | undefined;
        if ((hasT && hasD) || (!hasT && !hasD && pitch === undefined))
          throw new PrimitiveError('rotate_wrist: pass one of targetYaw or deltaYaw, and/or pitch');
        const pose = arm.commandedPose();
        const grip = hasD
          ? { yaw: pose.yaw + (args.deltaYaw as number), pitch: gripTarget(pose, undefined, pitch).pitch }
          : gripTarget(pose, hasT ? (args.targetYaw as number) : undefined, pitch);
        try {
          return await moveArm(world, arm, 'rotate_wrist', pose.pos, grip, 0.005, undefined);
        } catch (e) {
          if (!(e instanceof PrimitiveError)) throw e;
          const [cw, ccw] = arm.wristYawRoom();
          const range = `[${(pose.yaw - cw).toFixed(2)}, ${(pose.yaw + ccw).toFixed(2)}]`;
          throw new PrimitiveError(`${e.message}; from wristYaw ${pose.yaw.toFixed(2)} the wrist turns within ${range} (wristYawRange)`);
        }
      },
    },
    {
      spec: {
        name: 'set_gripper',
        summary: 'Opens or closes the gripper to an opening and waits until the fingers stop.',
        positional: [{ name: 'opening', type: "number | 'OPEN' | 'CLOSE'", doc: gripperDoc, schema: Gripper }],
        options: [...armOpt],
        returns: [
          { name: 'openingM', type: 'number', doc: 'Measured finger opening at the end (m); less than commanded when something is between the fingers.' },
          { name: 'steps', type: 'number', doc: 'Simulation steps taken.' },
          { name: 'holding', type: 'string | null', doc: 'The object held between both fingers, if any.' },
        ],
        motion: true,
        errors: [ARGUMENT_ERROR, ...armErrors, gripperError, finished],
      },
      run: async (args) => {
        const arm = pickArm(world, 'set_gripper', args);
        const steps = await settleGripper(world, arm, openingOf(args.opening, arm));
        return { openingM: round(arm.openingM()), steps, holding: heldName(world, arm) };
      },
    },
    {
      spec: {
        name: 'grasp',
        summary: 'Closes the gripper where it is and reports whether an object is now held between the fingers.',
        positional: [],
        options: [...armOpt],
        returns: [
          { name: 'success', type: 'boolean', doc: 'True when an object is held between both fingers.' },
          { name: 'holding', type: 'string | null', doc: 'Name of the held object.' },
          {
            name: 'openingM',
            type: 'number',
            doc: 'Finger opening after closing (m): about the object width when holding, ~0 when the gripper closed on nothing.',
          },
          { name: 'steps', type: 'number', doc: 'Simulation steps taken.' },
        ],
        motion: true,
        errors: [ARGUMENT_ERROR, ...armErrors, finished],
      },
      run: async (args) => {
        const arm = pickArm(world, 'grasp', args);
        const steps = await settleGripper(world, arm, 0);
        const holding = heldName(world, arm);
        return { success: holding !== null, holding, openingM: round(arm.openingM()), steps };
      },
    },
    {
      spec: {
        name: 'release',
        summary: `Opens the gripper (to ${openDocM} m) and waits until the fingers stop, letting go of what it held.`,
        positional: [],
        options: [...armOpt],
        returns: [
          { name: 'released', type: 'string | null', doc: 'The object that was held before opening, if any.' },
          { name: 'openingM', type: 'number', doc: 'Measured opening at the end (m).' },
          { name: 'steps', type: 'number', doc: 'Simulation steps taken.' },
        ],
        motion: true,
        errors: [ARGUMENT_ERROR, ...armErrors, finished],
      },
      run: async (args) => {
        const arm = pickArm(world, 'release', args);
        const released = heldName(world, arm);
        const steps = await settleGripper(world, arm, openOf(arm));
        return { released, openingM: round(arm.openingM()), steps };
      },
    },
  ];
}
