/**
 * Primitives of a robot with two arms: a coordinated move of both at once, and a hand-over of a
 * held object from one gripper to the other in the air. Both return what happened (per arm) like
 * the single-arm motions; misuse is a PrimitiveError.
 */
import { z } from 'zod';
import { PlanError, type ArmController } from '../robots/controller';
import type { Vec3 } from '../robots/math3';
import { Xyz, type PrimitiveDef } from '../../../primitives/registry';
import { ARGUMENT_ERROR, EPISODE_FINISHED_ERROR, PrimitiveError, type ResultFieldDoc } from '../../../primitives/types';
import { gripTarget, handReport, HAND_DOCS, MAX_PITCH_RAD, nearestEquivalentYaw, openOf, PITCH_DOC, runUntil } from './motion';
import { FLOOR_DOC, lowestTcpZ } from './floor';
import { heldObject, type RobotWorld } from './world';

const SETTLE_MAX_STEPS = 600;
/** How far the receiving grasp must be from the giving one (m): the two pairs of fingers must not meet. */
export const MIN_HANDOVER_SPAN_M = 0.05;
const APPROACH_M = 0.08;

const dist3 = (a: Vec3, b: Vec3): number => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const round = (v: number): number => Number(v.toFixed(4));

interface ArmMove {
  arm: ArmController;
  target: Vec3;
}

/** Plans every move first (so a plan error moves nothing), then steps until all have stopped. */
async function moveTogether(
  world: RobotWorld,
  name: string,
  moves: ArmMove[],
  yaws: number[],
  tolM: number,
  maxSteps?: number,
  pitches?: (number | undefined)[],
) {
  let planned = 0;
  for (let i = 0; i < moves.length; i++) {
    const { arm, target } = moves[i];
    const lowest = lowestTcpZ(world.sim, target[0], target[1]);
    if (target[2] < lowest)
      throw new PrimitiveError(
        `${name}: the ${arm.spec.name} target z = ${target[2]} m is below the lowest TCP height there, ${round(lowest)} m (${FLOOR_DOC})`,
      );
    try {
      planned = Math.max(planned, arm.planMove(target, yaws[i], pitches?.[i]));
    } catch (e) {
      for (const m of moves) m.arm.halt();
      if (e instanceof PlanError) throw new PrimitiveError(`${name}: the ${arm.spec.name} arm ${e.message}`);
      throw e;
    }
  }
  const last = moves.map((m) => m.arm.tcpPos());
  const steps = await runUntil(world, maxSteps ?? planned + SETTLE_MAX_STEPS, 0, () =>
    moves.every((m, i) => {
      const now = m.arm.tcpPos();
      const still = dist3(now, last[i]) < 0.0004;
      last[i] = now;
      return !m.arm.moving && still && dist3(now, m.target) < tolM;
    }),
  );
  for (const m of moves) m.arm.halt();
  const results = moves.map(({ arm, target }) => {
    const position = arm.tcpPos();
    const distanceM = dist3(position, target);
    return { reached: distanceM <= tolM, distanceM: round(distanceM), position: position.map(round), ...handReport(arm) };
  });
  return { results, steps };
}

async function settleGripper(world: RobotWorld, arm: ArmController, openingM: number): Promise<number> {
  arm.setGripper(openingM);
  let last = arm.openingM();
  return runUntil(world, 500, 100, () => {
    const now = arm.openingM();
    const still = Math.abs(now - last) < 0.0002;
    last = now;
    return still;
  });
}

function bodyPos(world: RobotWorld, name: string): Vec3 {
  const id = world.sim.requireId('body', name);
  const x = world.sim.data.xpos as Float64Array;
  return [x[3 * id], x[3 * id + 1], x[3 * id + 2]];
}

const armResult: ResultFieldDoc = {
  name: 'left / right',
  type: '{ reached, distanceM, position, yaw, pitch, wristYaw, wristYawRange }',
  doc:
    "Each arm's outcome: whether its TCP ended within tolM of its target, the final distance " +
    `(m), the measured TCP position (m), ${HAND_DOCS.yaw}, ${HAND_DOCS.pitch}, ${HAND_DOCS.wristYaw}, and ${HAND_DOCS.wristYawRange}.`,
};

export function bimanualPrimitives(world: RobotWorld): PrimitiveDef[] {
  if (world.arms.size !== 2) return [];
  const names = [...world.arms.keys()] as [string, string];
  const [a0, a1] = names;
  const finished = EPISODE_FINISHED_ERROR;
  const unreachable =
    "PrimitiveError: an arm's straight-line path with its hand's yaw and pitch cannot reach its " +
    'target (nothing moves; the message names the arm and the first unreachable point).';
  const Gripper = z.union([z.number().finite(), z.literal('OPEN'), z.literal('CLOSE')]);
  const opening = (v: unknown, arm: ArmController): number => {
    if (v === 'OPEN') return openOf(arm);
    if (v === 'CLOSE') return 0;
    const m = v as number;
    if (m < 0 || m > arm.spec.maxOpeningM) throw new PrimitiveError(`gripper opening ${m} m is outside 0..${arm.spec.maxOpeningM} m`);
    return m;
  };
  const arm = (n: string): ArmController => world.arms.get(n) as ArmController;
  return [
    {
      spec: {
        name: 'move_both',
        summary:
          `Moves both arms at once: each TCP goes in a straight line to its own target, hand pointing ` +
          `down unless a pitch tilts it; the two motions start together and the call returns when both have stopped. Plans ` +
          `both first, so an unreachable target moves neither arm.`,
        positional: [
          { name: a0, type: '[x, y, z] metres, world frame', doc: `Target TCP position of the ${a0} arm.`, schema: Xyz },
          { name: a1, type: '[x, y, z] metres, world frame', doc: `Target TCP position of the ${a1} arm.`, schema: Xyz },
        ],
        options: [
          ...names.map((n) => ({
            name: `${n}Yaw`,
            type: 'number (rad)',
            doc: `Gripper yaw of the ${n} arm (0: fingers close along world y). Default: keep its yaw.`,
            schema: z.number().finite(),
            optional: true,
          })),
          ...names.map((n) => ({
            name: `${n}Pitch`,
            type: 'number (rad)',
            doc: `Of the ${n} arm: ${PITCH_DOC}`,
            schema: z.number().min(-MAX_PITCH_RAD).max(MAX_PITCH_RAD),
            optional: true,
          })),
          ...names.map((n) => ({
            name: `${n}Gripper`,
            type: "number | 'OPEN' | 'CLOSE'",
            doc: `Sets the ${n} gripper before moving (metres, 'OPEN' or 'CLOSE').`,
            schema: Gripper,
            optional: true,
          })),
          {
            name: 'tolM',
            type: 'number (m)',
            doc: 'Distance that counts as reached, for each arm; default 0.005.',
            schema: z.number().positive().max(0.2),
            optional: true,
          },
        ],
        returns: [armResult, { name: 'steps', type: 'number', doc: 'Simulation steps the motion took (2 ms each).' }],
        motion: true,
        errors: [
          ARGUMENT_ERROR,
          `PrimitiveError: a target z is below the lowest TCP height (${FLOOR_DOC}).`,
          unreachable,
          'PrimitiveError: a gripper opening is out of range.',
          finished,
        ],
      },
      run: async (args) => {
        const moves = names.map((n) => ({ arm: arm(n), target: args[n] as Vec3 }));
        const grips = names.map((n) => gripTarget(arm(n).commandedPose(), args[`${n}Yaw`] as number | undefined, args[`${n}Pitch`] as number | undefined));
        for (const n of names) if (args[`${n}Gripper`] !== undefined) arm(n).setGripper(opening(args[`${n}Gripper`], arm(n)));
        const { results, steps } = await moveTogether(
          world,
          'move_both',
          moves,
          grips.map((g) => g.yaw),
          (args.tolM as number | undefined) ?? 0.005,
          undefined,
          grips.map((g) => g.pitch),
        );
        return { [a0]: results[0], [a1]: results[1], steps };
      },
    },
    {
      spec: {
        name: 'handover',
        summary:
          'Passes the object one gripper holds to the other gripper in the air: the giving arm carries ' +
          'it so that its centre is at xyz, the receiving arm grasps it from above on the far side of ' +
          'its centre (mirroring the giving grasp), then the giving arm opens and backs off upwards. ' +
          "The giving grasp must be off the object's centre (hold a long object near one end). A " +
          'receiving grasp that misses is a result (success: false, the giver still holds it).',
        positional: [
          { name: 'from', type: names.map((n) => `'${n}'`).join(' | '), doc: 'The arm that holds the object now.', schema: z.enum(names) },
          { name: 'xyz', type: '[x, y, z] metres, world frame', doc: "Where the object's centre is when it changes hands.", schema: Xyz },
        ],
        options: [],
        returns: [
          { name: 'success', type: 'boolean', doc: 'True when the receiving arm holds the object and the giving arm has let go.' },
          { name: 'holding', type: 'string | null', doc: 'What the receiving arm holds at the end.' },
          { name: 'to', type: 'string', doc: 'The receiving arm.' },
          { name: 'steps', type: 'number', doc: 'Simulation steps the whole hand-over took.' },
        ],
        motion: true,
        errors: [
          ARGUMENT_ERROR,
          'PrimitiveError: the giving arm holds nothing.',
          `PrimitiveError: the giving grasp is within ${MIN_HANDOVER_SPAN_M / 2} m of the object's centre, leaving no room for the other gripper.`,
          unreachable,
          finished,
        ],
      },
      run: async (args) => {
        const fromName = args.from as string;
        const toName = names.find((n) => n !== fromName) as string;
        const giver = arm(fromName);
        const taker = arm(toName);
        const obj = heldObject(world, giver);
        if (!obj) throw new PrimitiveError(`handover: the ${fromName} arm holds nothing; grasp the object first`);
        const centre = bodyPos(world, obj);
        const tcp = giver.tcpPos();
        const g: Vec3 = [tcp[0] - centre[0], tcp[1] - centre[1], tcp[2] - centre[2]];
        const span = 2 * Math.hypot(g[0], g[1]);
        if (span < MIN_HANDOVER_SPAN_M) {
          throw new PrimitiveError(
            `handover: the ${fromName} gripper holds ${obj} ${(span / 2).toFixed(3)} m from its centre; ` +
              `grasp it at least ${MIN_HANDOVER_SPAN_M / 2} m off centre so the ${toName} gripper has room`,
          );
        }
        const xyz = args.xyz as Vec3;
        const giveAt: Vec3 = [xyz[0] + g[0], xyz[1] + g[1], xyz[2] + g[2]];
        const takeAt: Vec3 = [xyz[0] - g[0], xyz[1] - g[1], xyz[2] + g[2]];
        const above: Vec3 = [takeAt[0], takeAt[1], takeAt[2] + APPROACH_M];
        const yaw = giver.commandedPose().yaw;
        let steps = 0;
        taker.setGripper(openOf(taker));
        // Giver to the hand-over point while the taker comes over its grasp point.
        const takerYaw = nearestEquivalentYaw(yaw, taker.commandedPose().yaw);
        steps += (
          await moveTogether(
            world,
            'handover',
            [
              { arm: giver, target: giveAt },
              { arm: taker, target: above },
            ],
            [yaw, takerYaw],
            0.01,
          )
        ).steps;
        steps += (await moveTogether(world, 'handover', [{ arm: taker, target: takeAt }], [takerYaw], 0.01)).steps;
        steps += await settleGripper(world, taker, 0);
        if (heldObject(world, taker) !== obj) {
          steps += await settleGripper(world, taker, openOf(taker));
          steps += (await moveTogether(world, 'handover', [{ arm: taker, target: above }], [takerYaw], 0.01)).steps;
          return { success: false, holding: heldObject(world, taker), to: toName, steps };
        }
        steps += await settleGripper(world, giver, openOf(giver));
        const up: Vec3 = [giveAt[0], giveAt[1], giveAt[2] + APPROACH_M];
        steps += (await moveTogether(world, 'handover', [{ arm: giver, target: up }], [yaw], 0.01)).steps;
        const holding = heldObject(world, taker);
        return { success: holding === obj && heldObject(world, giver) === null, holding, to: toName, steps };
      },
    },
  ];
}
