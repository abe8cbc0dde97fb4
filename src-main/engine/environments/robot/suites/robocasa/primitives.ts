/**
 * The fixture primitives: open, close, press, turn. Specified once here, so the tool-calling arm
 * (one tool each) and the code arm (robo.open(...)) get the same documentation from the one
 * generator. Each names a fixture or one of its parts as `find` and `state` report them, runs the
 * hand along the part's path (motions.ts) and reports the part's state measured afterwards.
 */
import { z } from 'zod';
import type { PrimitiveDef } from '../../../../primitives/registry';
import { ARGUMENT_ERROR, EPISODE_FINISHED_ERROR, PrimitiveError } from '../../../../primitives/types';
import { pickArm } from '../../primitives/motion';
import type { RobotWorld } from '../../primitives/world';
import type { FixtureJoint } from './fixtures';
import { press, pushLever, slide, swingFlap, swingSideDoor, turnKnob, type WorkContext } from './motions';
import type { KitchenRuntime } from './runtime';

const UNREACHABLE = "PrimitiveError: the part's path leaves the arm's workspace (the message names the first point the hand cannot reach).";
const r4 = (v: number): number => Number(v.toFixed(4));

/** The lever tip of the sink handle and the spout's end, in their bodies' frames (fixtures.ts). */
const LEVER_TIPS: Record<string, { tip: [number, number, number]; r: number }> = {
  handle: { tip: [-0.095, 0, 0.03], r: 0.012 },
  spout: { tip: [-0.15, 0, -0.02], r: 0.012 },
};

/** Radians a knob or lever turns to for a named setting. */
const SETTINGS: Record<string, Record<string, number>> = {
  knob: { off: 0, on: 1.2, low: 0.6, medium: 1.2, high: 2.4 },
  lever: { off: 0, on: 1.3 },
  spout: { right: -0.75, center: 0, left: 0.75 },
};

function resolve(rt: KitchenRuntime, primitive: string, target: string, roles: readonly FixtureJoint['role'][]): { fixture: string; joint: FixtureJoint } {
  const t = target
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  const candidates: { fixture: string; joint: FixtureJoint }[] = [];
  for (const pf of rt.kitchen.fixtures) {
    for (const j of pf.fixture.joints) {
      if (!roles.includes(j.role)) continue;
      const names = [
        `${pf.fixture.name}_${j.label}`,
        j.grip ?? '',
        j.role === 'door' || j.role === 'flap' || j.role === 'drawer' ? pf.fixture.name : '',
        `${pf.fixture.name}_${j.role}`,
      ];
      if (names.includes(t)) candidates.push({ fixture: pf.fixture.name, joint: j });
    }
  }
  if (candidates.length === 0) {
    const known = rt.kitchen.fixtures.flatMap((pf) =>
      pf.fixture.joints
        .filter((j) => roles.includes(j.role))
        .map((j) => (j.role === 'door' || j.role === 'flap' || j.role === 'drawer' ? pf.fixture.name : `${pf.fixture.name}_${j.label}`)),
    );
    throw new PrimitiveError(`${primitive}: no ${roles.join('/')} called "${target}" (there are: ${known.join(', ')})`);
  }
  return candidates[0];
}

function partState(rt: KitchenRuntime, fixture: string, j: FixtureJoint) {
  return { fixture, part: j.label, openFraction: r4(rt.norm(fixture, j.label)), angleOrOffset: r4(rt.q(fixture, j.label)) };
}

export function kitchenPrimitives(world: RobotWorld, rt: KitchenRuntime): PrimitiveDef[] {
  const ctx = (name: string, args: Record<string, unknown>): WorkContext => ({ world, rt, arm: pickArm(world, name, args), name });
  const partResult = [
    { name: 'fixture', type: 'string', doc: 'The fixture worked.' },
    { name: 'part', type: 'string', doc: "Which of its parts ('door', 'drawer', 'rack', a knob's burner, 'handle', 'spout', a button)." },
    { name: 'openFraction', type: 'number', doc: "Measured afterwards: 0 closed / off … 1 at the open / fully-on end of the part's range." },
    { name: 'angleOrOffset', type: 'number', doc: 'The joint measured afterwards: rad for hinges, knobs and levers, m for drawers and racks.' },
    { name: 'reached', type: 'boolean', doc: 'Whether the part ended within 0.05 of the asked opening (a result, not an error).' },
  ];
  const doorRoles = ['door', 'flap', 'drawer', 'rack'] as const;
  const work = async (name: string, args: Record<string, unknown>, target: number) => {
    const { fixture, joint } = resolve(rt, name, args.target as string, doorRoles);
    const c = ctx(name, args);
    if (joint.role === 'door') await swingSideDoor(c, joint, target);
    else if (joint.role === 'flap') await swingFlap(c, joint, target);
    else await slide(c, joint, target);
    const s = partState(rt, fixture, joint);
    return { ...s, reached: Math.abs(s.openFraction - target) <= 0.05 };
  };
  const targetParam = (what: string) => ({ name: 'target', type: 'string', doc: what, schema: z.string().min(1) });
  return [
    {
      spec: {
        name: 'open',
        summary:
          "Opens a door, drawer or rack by its handle: the hand hooks the handle and pulls it along the part's path (a hinge's arc or a slide), then lets go.",
        positional: [
          targetParam(
            "A fixture ('cabinet', 'microwave', 'drawer', 'dishwasher', 'toaster_oven', 'fridge') for its door or drawer, " +
              "'stand_mixer' for its head, or a part such as 'dishwasher_rack'.",
          ),
        ],
        options: [
          {
            name: 'fraction',
            type: 'number',
            doc: "How far to open, 0..1 of the part's range; default 1 (fully).",
            schema: z.number().min(0).max(1),
            optional: true,
          },
        ],
        returns: partResult,
        motion: true,
        errors: [ARGUMENT_ERROR, 'PrimitiveError: no door, drawer or rack has that name (the message lists them).', UNREACHABLE, EPISODE_FINISHED_ERROR],
      },
      run: (args) => work('open', args, (args.fraction as number | undefined) ?? 1),
    },
    {
      spec: {
        name: 'close',
        summary:
          'Closes a door, drawer or rack: the hand pushes it shut from outside its handle (a drop-down ' +
          'door: pinches its tab and swings it up), then backs off.',
        positional: [
          targetParam(
            "A fixture ('cabinet', 'microwave', 'drawer', 'dishwasher', 'toaster_oven', 'fridge', 'stand_mixer') or a part such as 'dishwasher_rack'.",
          ),
        ],
        options: [],
        returns: partResult,
        motion: true,
        errors: [ARGUMENT_ERROR, 'PrimitiveError: no door, drawer or rack has that name (the message lists them).', UNREACHABLE, EPISODE_FINISHED_ERROR],
      },
      run: (args) => work('close', args, 0),
    },
    {
      spec: {
        name: 'press',
        summary: 'Presses a button from above with the closed fingers and lifts off again (the button springs back).',
        positional: [
          targetParam(
            "A button or switch, e.g. 'microwave_start_button', 'microwave_stop_button', 'coffee_machine_start_button', " +
              "'electric_kettle_switch', 'toaster_lever'.",
          ),
        ],
        options: [],
        returns: [
          { name: 'button', type: 'string', doc: 'The button pressed.' },
          { name: 'pressed', type: 'boolean', doc: 'Whether it went in past its press depth (60 % of its travel) during the motion.' },
          { name: 'turnedOn', type: 'boolean | null', doc: "The appliance's on/off state afterwards (null for a fixture without one)." },
        ],
        motion: true,
        errors: [ARGUMENT_ERROR, 'PrimitiveError: no button has that name (the message lists them).', UNREACHABLE, EPISODE_FINISHED_ERROR],
      },
      run: async (args) => {
        const { fixture, joint } = resolve(rt, 'press', args.target as string, ['button']);
        const pressed = await press(ctx('press', args), joint);
        const on: Record<string, () => boolean> = {
          microwave: () => rt.microwaveOn,
          coffee_machine: () => rt.coffeeOn,
          electric_kettle: () => rt.kettleOn,
          toaster: () => rt.toasterOn,
        };
        const turnedOn = on[fixture]?.() ?? null;
        return { button: `${fixture}_${joint.label}`, pressed, turnedOn };
      },
    },
    {
      spec: {
        name: 'turn',
        summary: 'Turns a knob (grips it and turns the wrist) or a lever or spout (pushes its tip round) to a setting.',
        positional: [
          targetParam("A knob ('stove_front_left', 'stove_rear_right', …, 'toaster_oven_timer'), the sink's 'sink_handle' (water) or 'sink_spout'."),
          {
            name: 'setting',
            type: "'on' | 'off' | 'low' | 'medium' | 'high' | 'left' | 'center' | 'right' | number",
            doc: 'A named setting (knobs: off, low, medium/on, high; the sink handle: off, on; the spout: left, center, right), or the joint angle in rad.',
            schema: z.union([z.string().min(1), z.number().finite()]),
          },
        ],
        options: [],
        returns: [
          ...partResult.slice(0, 4),
          { name: 'reached', type: 'boolean', doc: 'Whether the part ended within 0.15 rad of the setting (a result, not an error).' },
        ],
        motion: true,
        errors: [
          ARGUMENT_ERROR,
          'PrimitiveError: no knob, lever or spout has that name, or the setting is not one of its settings (the message lists them).',
          UNREACHABLE,
          EPISODE_FINISHED_ERROR,
        ],
      },
      run: async (args) => {
        const { fixture, joint } = resolve(rt, 'turn', args.target as string, ['knob', 'lever', 'spout']);
        const table = SETTINGS[joint.role];
        const s = args.setting;
        const q = typeof s === 'number' ? s : table[String(s).toLowerCase()];
        if (q === undefined)
          throw new PrimitiveError(
            `turn: "${String(s)}" is not a setting of ${fixture}_${joint.label} (settings: ${Object.keys(table).join(', ')}, or an angle in rad)`,
          );
        const lo = Math.min(joint.closedQ, joint.openQ) - (joint.role === 'knob' ? 0.2 : 0);
        const hi = Math.max(joint.closedQ, joint.openQ);
        if (q < lo || q > hi) throw new PrimitiveError(`turn: ${q} rad is outside the range of ${fixture}_${joint.label} (${r4(lo)}..${r4(hi)} rad)`);
        const c = ctx('turn', args);
        if (joint.role === 'knob') await turnKnob(c, joint, q);
        else await pushLever(c, joint, q, LEVER_TIPS[joint.label].tip, LEVER_TIPS[joint.label].r);
        const st = partState(rt, fixture, joint);
        return { ...st, reached: Math.abs(st.angleOrOffset - q) <= 0.15 };
      },
    },
  ];
}
