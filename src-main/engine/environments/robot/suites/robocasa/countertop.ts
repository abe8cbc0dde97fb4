/**
 * The fixtures a kitchen gets only when a task asks for one (RoboCasa's `enable_fixtures`): a
 * compact fridge, an electric kettle, a blender, a stand mixer and a toaster, from MuJoCo primitives
 * with working joints. Each is built in the fixture frame of fixtures.ts (x towards the wall, y along
 * the counter, z up from the counter top, front face at x = −depth/2).
 *
 * Parts worked from above are placed where the hand, pointing down, reaches them: the kettle's
 * switch and the toaster's lever stand on a tongue in front of the body (the palm is 14 cm across
 * the fingers, so a switch beside a tall body would put the palm on it), the mixer's head has a
 * tab on its front to pinch.
 */
import type { Vec3 } from '../../robots/math3';
import { box, cyl, excl, type Fixture, type FixtureJoint, info, n, shell, sideDoor, type Style, v3, WALL, withPose } from './fixtures';

/**
 * How far the kettle's switch and the toaster's lever go down (m): the press primitive pushes 7 mm
 * past a cap's top and gets about 5.2 mm down against the spring, past RoboCasa's 0.95.
 */
export const SWITCH_TRAVEL_M = 0.005;
/** RoboCasa: the kettle is on once its switch is at ≥ 0.95 of its range; the toaster once its lever is at ≥ 0.90. */
export const KETTLE_ON_TH = 0.95;
export const TOASTER_ON_TH = 0.9;
/** RoboCasa's stand mixer head is open above 0.99 of its range; its head tilts up to 1.1 rad here, past its balance, so it rests open against its stop. */
export const MIXER_HEAD_OPEN_TH = 0.99;
const MIXER_HEAD_MAX_RAD = 1.1;

/**
 * A slide switch pressed down from above, sprung back up: the kettle's switch, the toaster's lever.
 * (Held by friction alone, the cap crept down under its own weight and switched the appliance on
 * within about 2 s.) The runtime holds the toaster's lever down while it toasts, as RoboCasa does.
 */
function downSwitch(p: string, label: string, x: number, y: number, zTop: number, rgba: string): { xml: string; joint: FixtureJoint } {
  const name = `${p}_${label}`;
  const joint: FixtureJoint = {
    joint: `${name}_slide`,
    label,
    role: 'button',
    closedQ: 0,
    openQ: -SWITCH_TRAVEL_M,
    grip: name,
    axis: [0, 0, 1],
    anchor: [x, y, zTop],
  };
  // A soft spring preloaded against the top stop: it holds the cap up, and the press primitive,
  // pushing 7 mm past the cap's top, takes it past RoboCasa's 0.95 / 0.90.
  const hold = 'stiffness="50" springref="0.004" damping="1"';
  const xml = `<body name="${name}" pos="${v3([x, y, zTop])}">
        <joint name="${name}_slide" type="slide" axis="0 0 1" range="${n(-SWITCH_TRAVEL_M)} 0" ${hold}/>
        ${box([0.014, 0.02, 0.008], [0, 0, 0.008], rgba, `${name}_cap`)}
      </body>`;
  return { xml, joint };
}

/**
 * The fridge's rack height over the counter (m): high enough that the hand, pointing down, reaches
 * the whole depth of the floor under it (at half height, 0.22 m, the wrist met the rack's front
 * edge with the hand 9 cm inside the door), leaving 10 cm above it for food.
 */
export const FRIDGE_RACK_M = 0.32;

/**
 * A compact fridge standing on the counter (the size of the kitchen's cabinet): one side-hinged
 * door with a bar handle, a half-depth wire rack, white walls.
 */
export function fridge(p: string, st: Style, hingeLeft: boolean, open: number): Fixture {
  const w = 0.4;
  const d = 0.36;
  const h = 0.44;
  const white = '0.93 0.94 0.95 1';
  const door = sideDoor(p, w, d, h, 0, hingeLeft, white, open);
  const rack = box([0.12, w / 2 - 0.02, 0.004], [d / 2 - 0.13, 0, FRIDGE_RACK_M], st.metal, `${p}_rack`);
  return withPose(p, 'fridge', 'fridge', w, d, h, {
    inner: `${shell(w, d, h, white)}${box([0.15, w / 2 - 0.02, 0.004], [0, 0, WALL + 0.004], '0.85 0.88 0.9 1')}${rack}${door.xml}`,
    joints: [door.joint],
    qpos: [door.q],
    interiors: [
      { body: p, lo: [-d / 2 + 0.01, -w / 2 + WALL, WALL], hi: [d / 2 - WALL, w / 2 - WALL, FRIDGE_RACK_M - 0.004] },
      { body: p, lo: [-d / 2 + 0.01, -w / 2 + WALL, FRIDGE_RACK_M + 0.004], hi: [d / 2 - WALL, w / 2 - WALL, h - WALL] },
    ],
    sites: {},
    infos: [
      info(p, 'fridge', 'fridge with a hinged door and a rack', [d, w, h]),
      info(`${p}_door`, 'door', 'fridge door', [0.02, w, h], true),
      info(`${p}_door_handle`, 'handle', 'fridge door handle', [0.016, 0.016, 0.16], true),
    ],
    contact: excl(p, `${p}_door`) + excl(p, `${p}_door_handle`),
  });
}

/**
 * An electric kettle on its power base: a hinged lid on top (0 closed … 1 open, 1.6 rad) and the
 * power switch on the base's front tongue, pressed down (RoboCasa's `switch` joint).
 */
export function electricKettle(p: string, st: Style, lidOpen: number): Fixture {
  const w = 0.2;
  const d = 0.3;
  const h = 0.22;
  const r = 0.07;
  const bodyX = 0.05;
  const lidQ = -1.6;
  const sw = downSwitch(p, 'switch', -d / 2 + 0.035, 0, 0.032, '0.15 0.15 0.16 1');
  const lid: FixtureJoint = { joint: `${p}_lid_hinge`, label: 'lid', role: 'lid', closedQ: 0, openQ: lidQ, axis: [0, 1, 0], anchor: [bodyX + r, 0, h] };
  const inner = `${cyl(0.09, 0.01, [bodyX, 0, 0.01], '0.15 0.15 0.16 1')}${box([0.05, 0.035, 0.012], [-d / 2 + 0.05, 0, 0.012], '0.15 0.15 0.16 1')}
      ${cyl(r, (h - 0.02) / 2, [bodyX, 0, 0.02 + (h - 0.02) / 2], st.metal, `name="${p}_body"`)}
      ${box([0.012, 0.012, 0.06], [bodyX + r + 0.03, 0, 0.13], '0.15 0.15 0.16 1')}
      <body name="${p}_lid" pos="${v3([bodyX + r, 0, h])}">
        <joint name="${p}_lid_hinge" type="hinge" axis="0 1 0" range="${n(lidQ)} 0" damping="0.2" frictionloss="0.05"/>
        ${cyl(0.062, 0.006, [-r, 0, 0.006], '0.15 0.15 0.16 1')}${box([0.012, 0.02, 0.01], [-r, 0, 0.02], '0.15 0.15 0.16 1')}
      </body>
      ${sw.xml}`;
  return withPose(p, 'electric_kettle', 'electric kettle', w, d, h, {
    inner,
    joints: [lid, sw.joint],
    qpos: [lidOpen * lidQ, 0],
    interiors: [],
    sites: {},
    infos: [
      info(p, 'electric_kettle', 'electric kettle on its base, with a hinged lid and a power switch lever on the base', [d, w, h]),
      info(`${p}_switch`, 'button', 'power switch lever of the electric kettle (press down)', [0.028, 0.04, 0.016], true),
      info(`${p}_lid`, 'lid', 'lid of the electric kettle', [0.124, 0.124, 0.012], true),
    ],
    contact: excl(p, `${p}_lid`) + excl(p, `${p}_switch`),
  });
}

/** The blender's jar: its rim height and inner radius (the lid's plug fits in). */
export const BLENDER_JAR_TOP_M = 0.27;
export const BLENDER_JAR_R = 0.06;

/** A blender: a motor base and an open jar on it; the lid is a free object (RoboCasa's auxiliary fixture). */
export function blender(p: string, st: Style): Fixture {
  const w = 0.2;
  const d = 0.2;
  const base = 0.1;
  const jarH = BLENDER_JAR_TOP_M - base;
  const k = 14;
  const seg = (2 * Math.PI * BLENDER_JAR_R) / k / 2 + 0.003;
  const walls = Array.from({ length: k }, (_, i) => {
    const a = (2 * Math.PI * i) / k;
    const c = [BLENDER_JAR_R * Math.cos(a), BLENDER_JAR_R * Math.sin(a), base + jarH / 2];
    return `<geom class="object" type="box" size="0.004 ${n(seg)} ${n(jarH / 2)}" pos="${v3(c)}" euler="0 0 ${n(a)}" rgba="0.75 0.85 0.9 0.45"/>`;
  }).join('');
  return withPose(p, 'blender', 'blender', w, d, BLENDER_JAR_TOP_M, {
    inner: `${box([d / 2 - 0.01, w / 2 - 0.01, base / 2], [0, 0, base / 2], st.metal)}${cyl(BLENDER_JAR_R + 0.004, 0.003, [0, 0, base + 0.003], '0.75 0.85 0.9 0.6')}${walls}`,
    joints: [],
    qpos: [],
    interiors: [{ body: p, lo: [-BLENDER_JAR_R, -BLENDER_JAR_R, base], hi: [BLENDER_JAR_R, BLENDER_JAR_R, BLENDER_JAR_TOP_M] }],
    sites: { lid_closed: [0, 0, BLENDER_JAR_TOP_M + 0.006] },
    infos: [info(p, 'blender', 'blender: a motor base and an open jar (its lid goes on the jar)', [d, w, BLENDER_JAR_TOP_M])],
    contact: '',
  });
}

/**
 * A tilt-head stand mixer: a column at the back, the head hinged on its top and reaching forward
 * over the bowl; the head tilts up (0 down … 1 up, 1.1 rad, where it rests back against its stop), held by friction, pinched by a tab on
 * its front.
 */
export function standMixer(p: string, st: Style, head: number): Fixture {
  const w = 0.22;
  const d = 0.34;
  const colX = d / 2 - 0.05;
  const pivotZ = 0.22;
  const headLen = 0.22;
  const hq = MIXER_HEAD_MAX_RAD;
  const joint: FixtureJoint = {
    joint: `${p}_head_hinge`,
    label: 'head',
    role: 'flap',
    closedQ: 0,
    openQ: hq,
    grip: `${p}_head_tab`,
    axis: [0, 1, 0],
    anchor: [colX, 0, pivotZ],
  };
  const inner = `${box([d / 2, w / 2 - 0.02, 0.015], [0, 0, 0.015], st.accent)}${box([0.045, 0.05, (pivotZ - 0.03) / 2], [colX, 0, 0.03 + (pivotZ - 0.03) / 2], st.accent)}
      ${cyl(0.07, 0.045, [colX - 0.15, 0, 0.075], st.metal, `name="${p}_bowl"`)}
      <body name="${p}_head" pos="${v3([colX, 0, pivotZ])}">
        <joint name="${p}_head_hinge" type="hinge" axis="0 1 0" range="0 ${n(hq)}" damping="0.5" frictionloss="0.25"/>
        ${box([headLen / 2, 0.055, 0.045], [-headLen / 2 + 0.03, 0, 0.07], st.accent, `${p}_head_body`).replace('/>', ' density="150"/>')}
        ${cyl(0.012, 0.03, [-headLen + 0.1, 0, -0.03], st.metal).replace('/>', ' density="150"/>')}
        <body name="${p}_head_tab" pos="${v3([-headLen + 0.03, 0, 0.115])}">
          ${box([0.008, 0.018, 0.03], [0, 0, 0.03], '0.78 0.78 0.8 1', `${p}_head_tab_plate`).replace('/>', ' density="150"/>')}
        </body>
      </body>`;
  return withPose(p, 'stand_mixer', 'stand mixer', w, d, pivotZ + 0.115, {
    inner,
    joints: [joint],
    qpos: [head * hq],
    interiors: [],
    sites: {},
    infos: [
      info(p, 'stand_mixer', 'tilt-head stand mixer: the head hinges up at the back of the column', [d, w, pivotZ + 0.115]),
      info(`${p}_head`, 'head', 'stand mixer head (tilts up)', [headLen, 0.11, 0.115], true),
      info(`${p}_head_tab`, 'handle', 'tab on the front of the stand mixer head', [0.016, 0.036, 0.06], true),
    ],
    contact: excl(p, `${p}_head`) + excl(p, `${p}_head_tab`),
  });
}

/** The toaster's two slots: centres in the fixture frame (x across the slot, y along it) and the slot floor. */
export const TOASTER_SLOTS: readonly Vec3[] = [
  [0.02, 0, 0.13],
  [0.08, 0, 0.13],
];
export const TOASTER_H = 0.18;

/**
 * A two-slot toaster: a body with two slots open at the top (a floor in each), and the lever on a
 * tongue in front, pressed down (it stays down until pulled or the toast is done).
 */
export function toaster(p: string, st: Style): Fixture {
  const w = 0.26;
  const d = 0.32;
  const h = TOASTER_H;
  const slotW = 0.026;
  const slotL = 0.15;
  const bodyFront = -0.05;
  const lever = downSwitch(p, 'lever', -d / 2 + 0.025, 0, 0.05, '0.15 0.15 0.16 1');
  // The body: walls between and around the slots, solid below the slot floors.
  const xs = TOASTER_SLOTS.map((s) => s[0]);
  const ends = [bodyFront, xs[0] - slotW / 2, xs[0] + slotW / 2, xs[1] - slotW / 2, xs[1] + slotW / 2, d / 2];
  const floorZ = TOASTER_SLOTS[0][2];
  const bars: string[] = [];
  for (let i = 0; i < ends.length - 1; i += 2)
    bars.push(box([(ends[i + 1] - ends[i]) / 2, w / 2, (h - floorZ) / 2], [(ends[i] + ends[i + 1]) / 2, 0, floorZ + (h - floorZ) / 2], st.metal));
  for (const x of xs)
    for (const sy of [-1, 1])
      bars.push(
        box([slotW / 2, (w / 2 - slotL / 2) / 2, (h - floorZ) / 2], [x, sy * (slotL / 2 + (w / 2 - slotL / 2) / 2), floorZ + (h - floorZ) / 2], st.metal),
      );
  const floors = xs.map((x, i) => box([slotW / 2, slotL / 2, 0.003], [x, 0, floorZ - 0.003], '0.3 0.3 0.3 1', `${p}_slot${i}_floor`)).join('');
  const inner = `${box([(d / 2 - bodyFront) / 2, w / 2, floorZ / 2], [(bodyFront + d / 2) / 2, 0, floorZ / 2], st.metal)}${bars.join('')}${floors}
      ${box([(bodyFront + d / 2) / 2, 0.03, 0.025], [(-d / 2 + bodyFront) / 2, 0, 0.025], '0.15 0.15 0.16 1')}${lever.xml}`;
  return withPose(p, 'toaster', 'toaster', w, d, h, {
    inner,
    joints: [lever.joint],
    qpos: [0],
    interiors: xs.map((x) => ({ body: p, lo: [x - slotW / 2, -slotL / 2, floorZ] as Vec3, hi: [x + slotW / 2, slotL / 2, h] as Vec3 })),
    sites: Object.fromEntries(TOASTER_SLOTS.map((s, i) => [`slot${i}`, s])),
    infos: [
      info(p, 'toaster', 'two-slot toaster with a lever in front (press down to toast)', [d, w, h]),
      info(`${p}_lever`, 'button', 'toaster lever (press down)', [0.028, 0.04, 0.016], true),
    ],
    contact: excl(p, `${p}_lever`),
  });
}
