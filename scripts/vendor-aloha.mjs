// Vendors the ALOHA bimanual ViperX 300 (huggingface/gym-aloha, Apache-2.0) and writes our robot
// file from it. Run: `node scripts/vendor-aloha.mjs <gym-aloha clone>` (a work tree, or a bare git
// directory: files are read with `git show HEAD:<path>`). It copies the link meshes and the
// LICENSE to assets/third_party/aloha/ with a PROVENANCE file, and writes assets/robots/aloha.xml.
// Edit this file, not the XML.
//
// What the robot file changes against gym-aloha's MJCF (also listed in PROVENANCE):
// - Both arms stand side by side at the near edge of the table facing +x (RoboTwin's aloha-agilex
//   layout), not facing each other across it; base at (0, ±0.3, 0), the table top is z = 0.
// - Every link collides through simple primitives (capsules, boxes, finger pads) in group 3; the STL
//   meshes are visual only (group 2, contype 0, conaffinity 0). As meshes every link collided as a
//   hull and the scene stepped at ~4.7k steps/s.
// - Joint friction losses (30-60 N m, which swamp any servo) are gone; the bodies have gravity
//   compensation; the actuators are our position servos (kp/kv per joint) with the original ranges.
// - The two finger slides are re-based so 0 is closed (body offset 21 mm, range 0..36 mm each),
//   coupled by an equality, and driven through one tendon whose length is the finger opening in m.
// - Sites `left_tcp` / `right_tcp` between the finger pads; head and wrist cameras; a home keyframe
//   with both grippers pointing down.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = process.argv[2];
if (!src) {
  console.error('usage: node scripts/vendor-aloha.mjs <path to a clone of github.com/huggingface/gym-aloha>');
  process.exit(2);
}
const bare = existsSync(join(src, 'HEAD')) && existsSync(join(src, 'objects'));
const git = (...args) => execFileSync('git', bare ? ['--git-dir', src, ...args] : ['-C', src, ...args], { maxBuffer: 64 << 20 });
const commit = git('rev-parse', 'HEAD').toString().trim();
const read = (rel) => (bare ? git('show', `HEAD:${rel}`) : readFileSync(join(src, rel)));

const MESHES = [
  'vx300s_1_base',
  'vx300s_2_shoulder',
  'vx300s_3_upper_arm',
  'vx300s_4_upper_forearm',
  'vx300s_5_lower_forearm',
  'vx300s_6_wrist',
  'vx300s_7_gripper',
  'vx300s_8_gripper_prop',
  'vx300s_9_gripper_bar',
  'vx300s_10_custom_finger_left',
  'vx300s_10_custom_finger_right',
];
const outDir = join(root, 'assets/third_party/aloha');
mkdirSync(join(outDir, 'meshes'), { recursive: true });
for (const m of MESHES) writeFileSync(join(outDir, 'meshes', `${m}.stl`), read(`gym_aloha/assets/${m}.stl`));
writeFileSync(join(outDir, 'LICENSE'), read('LICENSE'));
// The arm's kinematics below are read off this file; fail loudly if upstream changed it.
const leftXml = read('gym_aloha/assets/vx300s_left.xml').toString();
for (const probe of [
  'pos="0.05955 0 0.3"',
  'name="vx300s_left/lower_forearm_link" pos="0.2 0 0"',
  'name="vx300s_left/gripper_link" pos="0.069744 0 0"',
  'range="0.021 0.057"',
]) {
  if (!leftXml.includes(probe)) throw new Error(`gym_aloha/assets/vx300s_left.xml no longer contains ${probe}: check the kinematics in this script`);
}

const f = (v) => (Math.abs(v) < 1e-12 ? '0' : String(Number(v.toFixed(5))));
const vec = (a) => a.map(f).join(' ');

/** Upper arm (shoulder → elbow) offset, forearm length, wrist joint → TCP (m), shoulder height. */
const K = { upper: [0.05955, 0.3], fore: 0.3, wristToTcp: 0.069744 + 0.136, shoulderZ: 0.079 + 0.04805 };
const HOME_TCP = [0.25, 0.22];
const HOME_OPENING_M = 0.06;

/**
 * Joint angles (waist 0) that put the TCP at (r, z) in the arm's plane, pointing down: a 2-link
 * solve for shoulder and elbow, the wrist pitch making the three pitches sum to π/2.
 */
function pointDown(r, z) {
  const wx = r;
  const wz = z + K.wristToTcp - K.shoulderZ;
  let q1 = 0;
  let q2 = 0;
  for (let it = 0; it < 200; it++) {
    // Pitch about +y turns x towards -z: (x, z) → (x cos q + z sin q, -x sin q + z cos q).
    const rot = (x, zz, q) => [x * Math.cos(q) + zz * Math.sin(q), -x * Math.sin(q) + zz * Math.cos(q)];
    const fk = (a, b) => {
      const e = rot(K.upper[0], K.upper[1], a);
      const w = rot(K.fore, 0, a + b);
      return [e[0] + w[0], e[1] + w[1]];
    };
    const p = fk(q1, q2);
    const err = [wx - p[0], wz - p[1]];
    if (Math.hypot(...err) < 1e-10) break;
    const h = 1e-6;
    const d1 = fk(q1 + h, q2).map((v, i) => (v - p[i]) / h);
    const d2 = fk(q1, q2 + h).map((v, i) => (v - p[i]) / h);
    const det = d1[0] * d2[1] - d2[0] * d1[1];
    q1 += (d2[1] * err[0] - d2[0] * err[1]) / det;
    q2 += (-d1[1] * err[0] + d1[0] * err[1]) / det;
  }
  return [0, q1, q2, 0, Math.PI / 2 - q1 - q2, 0];
}
const HOME_Q = pointDown(...HOME_TCP);

const JOINTS = [
  { name: 'waist', range: [-3.14158, 3.14158], cls: 'big' },
  { name: 'shoulder', range: [-1.85005, 1.25664], cls: 'big' },
  { name: 'elbow', range: [-1.76278, 1.6057], cls: 'big' },
  { name: 'forearm_roll', range: [-3.14158, 3.14158], cls: 'small' },
  { name: 'wrist_angle', range: [-1.8675, 2.23402], cls: 'small' },
  { name: 'wrist_rotate', range: [-3.14158, 3.14158], cls: 'small' },
];
const jointXml = (p, i, axis) => `<joint name="${p}${JOINTS[i].name}" axis="${axis}" range="${vec(JOINTS[i].range)}"/>`;
/** A visual-only mesh; `orient` is a quat (4 numbers) or, for the fingers as upstream writes them, an euler (3). */
const mesh = (name, pos, orient) => {
  const o = orient ? ` ${orient.split(' ').length === 3 ? 'euler' : 'quat'}="${orient}"` : '';
  return `<geom class="visual" mesh="${name}"${pos ? ` pos="${pos}"` : ''}${o}/>`;
};
const Q90 = '0.707107 0 0 0.707107';

function armBody(p, basePos) {
  return `
    <body name="${p}base" pos="${vec(basePos)}" childclass="aloha">
      ${mesh('vx300s_1_base', '', Q90)}
      <geom class="collision" type="cylinder" size="0.06 0.035" pos="0 0 0.035"/>
      <body name="${p}shoulder_link" pos="0 0 0.079" gravcomp="1">
        <inertial pos="0.000259233 -3.3552e-06 0.0116129" quat="-0.476119 0.476083 0.52279 0.522826" mass="0.798614" diaginertia="0.00120156 0.00113744 0.0009388"/>
        ${jointXml(p, 0, '0 0 1')}
        ${mesh('vx300s_2_shoulder', '0 0 -0.003', Q90)}
        <geom class="collision" type="cylinder" size="0.045 0.03" pos="0 0 0.03"/>
        <body name="${p}upper_arm_link" pos="0 0 0.04805" gravcomp="1">
          <inertial pos="0.0206949 4e-10 0.226459" quat="0 0.0728458 0 0.997343" mass="0.792592" diaginertia="0.00911338 0.008925 0.000759317"/>
          ${jointXml(p, 1, '0 1 0')}
          ${mesh('vx300s_3_upper_arm', '', Q90)}
          <geom class="collision" type="capsule" fromto="0 0 0.02 0.05955 0 0.3" size="0.035"/>
          <body name="${p}upper_forearm_link" pos="0.05955 0 0.3" gravcomp="1">
            <inertial pos="0.105723 0 0" quat="-0.000621631 0.704724 0.0105292 0.709403" mass="0.322228" diaginertia="0.00144107 0.00134228 0.000152047"/>
            ${jointXml(p, 2, '0 1 0')}
            ${mesh('vx300s_4_upper_forearm')}
            <geom class="collision" type="capsule" fromto="0.03 0 0 0.2 0 0" size="0.025"/>
            <body name="${p}lower_forearm_link" pos="0.2 0 0" gravcomp="1">
              <inertial pos="0.0513477 0.00680462 0" quat="-0.702604 -0.0796724 -0.702604 0.0796724" mass="0.414823" diaginertia="0.0005911 0.000546493 0.000155707"/>
              ${jointXml(p, 3, '1 0 0')}
              ${mesh('vx300s_5_lower_forearm', '', '0 1 0 0')}
              <geom class="collision" type="capsule" fromto="0 0 0 0.09 0 0" size="0.025"/>
              <body name="${p}wrist_link" pos="0.1 0 0" gravcomp="1">
                <inertial pos="0.046743 -7.6652e-06 0.010565" quat="-0.00100191 0.544586 0.0026583 0.8387" mass="0.115395" diaginertia="5.45707e-05 4.63101e-05 4.32692e-05"/>
                ${jointXml(p, 4, '0 1 0')}
                ${mesh('vx300s_6_wrist', '', Q90)}
                <geom class="collision" type="capsule" fromto="0 0 0 0.04 0 0" size="0.025"/>
                <body name="${p}gripper_link" pos="0.069744 0 0" gravcomp="1">
                  <inertial pos="0.0395662 -2.56311e-07 0.00400649" quat="0.62033 0.619916 -0.339682 0.339869" mass="0.251652" diaginertia="0.000689546 0.000650316 0.000468142"/>
                  ${jointXml(p, 5, '1 0 0')}
                  ${mesh('vx300s_7_gripper', '-0.02 0 0', Q90)}
                  ${mesh('vx300s_9_gripper_bar', '-0.020175 0 0', Q90)}
                  ${mesh('vx300s_8_gripper_prop', '-0.02 0 0', Q90)}
                  <geom name="${p}palm" class="collision" type="box" size="0.03 0.07 0.03" pos="0.047 0 0"/>
                  <site name="${p}tcp" pos="0.136 0 0" quat="0.707107 0 0.707107 0" size="0.006" rgba="1 0.5 0 0.6" group="4"/>
                  <camera name="${p}wrist" ${lookAt([0, 0, 0.07], [0.16, 0, 0])} fovy="75"/>
                  <body name="${p}finger_left" pos="0.0687 0.021 0" gravcomp="1">
                    <inertial pos="0.017344 -0.0060692 0" quat="0.449364 0.449364 -0.54596 -0.54596" mass="0.034796" diaginertia="2.48003e-05 1.417e-05 1.20797e-05"/>
                    <joint name="${p}finger_left" class="finger" axis="0 1 0"/>
                    ${mesh('vx300s_10_custom_finger_left', '0.005 -0.052 0', '3.14 1.57 0')}
                    <geom name="${p}pad_left" class="pad" pos="0.0673 -0.016 0"/>
                  </body>
                  <body name="${p}finger_right" pos="0.0687 -0.021 0" gravcomp="1">
                    <inertial pos="0.017344 0.0060692 0" quat="0.44937 -0.44937 0.545955 -0.545955" mass="0.034796" diaginertia="2.48002e-05 1.417e-05 1.20798e-05"/>
                    <joint name="${p}finger_right" class="finger" axis="0 -1 0"/>
                    ${mesh('vx300s_10_custom_finger_right', '0.005 0.052 0', '3.14 1.57 0')}
                    <geom name="${p}pad_right" class="pad" pos="0.0673 0.016 0"/>
                  </body>
                </body>
              </body>
            </body>
          </body>
        </body>
      </body>
    </body>`;
}

function armActuation(p) {
  return {
    tendon: `    <fixed name="${p}grip">\n      <joint joint="${p}finger_left" coef="1"/>\n      <joint joint="${p}finger_right" coef="1"/>\n    </fixed>`,
    equality: `    <joint name="${p}finger_couple" joint1="${p}finger_left" joint2="${p}finger_right" polycoef="0 1 0 0 0" solref="0.005 1"/>`,
    actuator: [
      ...JOINTS.map((j) => `    <position name="${p}act_${j.name}" joint="${p}${j.name}" class="${j.cls}" ctrlrange="${vec(j.range)}"/>`),
      `    <position name="${p}gripper" tendon="${p}grip" kp="300" kv="8" ctrlrange="0 0.072" forcerange="-40 40"/>`,
    ].join('\n'),
  };
}

function lookAt(pos, target, upHint = [0, 0, 1]) {
  const sub = (a, b) => a.map((x, i) => x - b[i]);
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const norm = (a) => {
    const n = Math.hypot(...a);
    return a.map((x) => x / n);
  };
  const fwd = norm(sub(target, pos));
  const right = norm(cross(fwd, upHint));
  const up = cross(right, fwd);
  return `pos="${vec(pos)}" xyaxes="${vec(right)} ${vec(up)}"`;
}

/** RoboTwin's table: 1.2 m wide (our y) by 0.7 m deep (our x), 5 cm thick, its near edge at x = -0.07. */
const TABLE = { x: [-0.07, 0.63], y: [-0.6, 0.6] };
const arms = [
  { prefix: 'left_', pos: [0, 0.3, 0] },
  { prefix: 'right_', pos: [0, -0.3, 0] },
];
const parts = arms.map((a) => armActuation(a.prefix));
const homeQpos = arms.map(() => vec([...HOME_Q, HOME_OPENING_M / 2, HOME_OPENING_M / 2])).join('  ');
const homeCtrl = arms.map(() => vec([...HOME_Q, HOME_OPENING_M])).join('  ');
const cx = (TABLE.x[0] + TABLE.x[1]) / 2;
const xml = `<!-- Generated by scripts/vendor-aloha.mjs from huggingface/gym-aloha ${commit.slice(0, 12)}: edit that script, not this file. -->
<mujoco model="aloha">
  <compiler angle="radian" autolimits="true" meshdir="aloha"/>
  <option timestep="0.002" integrator="implicitfast" cone="elliptic" impratio="10">
    <flag multiccd="enable"/>
  </option>
  <visual>
    <global offwidth="1280" offheight="960"/>
    <quality shadowsize="2048"/>
    <headlight ambient="0.35 0.35 0.35" diffuse="0.4 0.4 0.4" specular="0.1 0.1 0.1"/>
  </visual>
  <default>
    <!-- As on our other robots, arm geoms collide with the world and objects (contype 2 against
         conaffinity 1|2) but never with each other or the other arm (2 & 1 = 0). -->
    <default class="aloha">
      <joint damping="1.5" armature="0.05"/>
      <default class="visual">
        <geom type="mesh" group="2" contype="0" conaffinity="0" density="0" material="aloha_black"/>
      </default>
      <default class="collision">
        <geom group="3" contype="2" conaffinity="1" density="0" condim="3" friction="1 0.005 0.0001"/>
      </default>
      <default class="finger">
        <joint type="slide" range="0 0.036" damping="3" armature="0.01"/>
      </default>
      <default class="pad">
        <geom type="box" size="0.018 0.005 0.02" group="3" contype="2" conaffinity="1" density="0" condim="4" friction="1.5 0.02 0.002"/>
      </default>
    </default>
    <default class="big">
      <position kp="800" kv="80" forcerange="-150 150"/>
    </default>
    <default class="small">
      <position kp="200" kv="12" forcerange="-40 40"/>
    </default>
    <default class="object">
      <geom contype="1" conaffinity="3" condim="4" friction="1 0.01 0.001" density="500"/>
    </default>
  </default>
  <asset>
${MESHES.map((m) => `    <mesh name="${m}" file="${m}.stl" scale="0.001 0.001 0.001"/>`).join('\n')}
    <texture name="floor_tex" type="2d" builtin="checker" rgb1="0.32 0.34 0.36" rgb2="0.26 0.28 0.3" width="256" height="256"/>
    <material name="floor" texture="floor_tex" texrepeat="8 8" rgba="1 1 1 1"/>
    <!-- The scene builder replaces these three (and the lights) when an instance randomises them. -->
    <material name="table" rgba="0.72 0.6 0.46 1"/>
    <material name="wall" rgba="1 0.9 0.9 1"/>
    <material name="aloha_black" rgba="0.15 0.15 0.16 1"/>
  </asset>
  <worldbody>
    <light name="key" pos="0.3 -0.6 2.2" dir="0 0.3 -1" directional="true" castshadow="true" diffuse="0.7 0.7 0.7"/>
    <light name="fill" pos="0.3 0.8 1.8" dir="0 -0.4 -1" directional="true" castshadow="false" diffuse="0.3 0.3 0.3"/>
    <geom name="floor" type="plane" size="3 3 0.1" pos="0 0 -0.74" material="floor" contype="1" conaffinity="3"/>
    <body name="table">
      <geom name="table_top" type="box" size="${f((TABLE.x[1] - TABLE.x[0]) / 2)} ${f((TABLE.y[1] - TABLE.y[0]) / 2)} 0.025" pos="${f(cx)} 0 -0.025" material="table" contype="1" conaffinity="3" friction="1 0.01 0.001"/>
      <geom type="box" size="0.025 0.025 0.345" pos="${f(TABLE.x[0] + 0.05)} -0.55 -0.395" material="table" contype="0" conaffinity="0"/>
      <geom type="box" size="0.025 0.025 0.345" pos="${f(TABLE.x[0] + 0.05)} 0.55 -0.395" material="table" contype="0" conaffinity="0"/>
      <geom type="box" size="0.025 0.025 0.345" pos="${f(TABLE.x[1] - 0.05)} -0.55 -0.395" material="table" contype="0" conaffinity="0"/>
      <geom type="box" size="0.025 0.025 0.345" pos="${f(TABLE.x[1] - 0.05)} 0.55 -0.395" material="table" contype="0" conaffinity="0"/>
    </body>
    <geom name="wall" type="box" size="3 1.5 0.05" pos="1.3 0 0.76" quat="0.5 0.5 0.5 0.5" material="wall" contype="0" conaffinity="0"/>
    <camera name="head" ${lookAt([-0.25, 0, 0.62], [0.33, 0, 0])} fovy="60"/>
    <camera name="front" ${lookAt([1.2, 0, 0.75], [0.3, 0, 0.05])} fovy="55"/>
    <camera name="top" ${lookAt([0.33, 0, 1.45], [0.33, 0, 0], [1, 0, 0])} fovy="55"/>
${arms.map((a) => armBody(a.prefix, a.pos)).join('\n')}
    <!-- objects -->
  </worldbody>
  <tendon>
${parts.map((x) => x.tendon).join('\n')}
  </tendon>
  <equality>
${parts.map((x) => x.equality).join('\n')}
  </equality>
  <actuator>
${parts.map((x) => x.actuator).join('\n')}
  </actuator>
  <keyframe>
    <key name="home" qpos="${homeQpos}" ctrl="${homeCtrl}"/>
  </keyframe>
</mujoco>
`;
writeFileSync(join(root, 'assets/robots/aloha.xml'), xml);

writeFileSync(
  join(outDir, 'PROVENANCE'),
  `ALOHA bimanual ViperX 300 (vx300s) meshes
repository: https://github.com/huggingface/gym-aloha
commit: ${commit}
license: Apache-2.0 (LICENSE, copied from the repository root)
files: ${MESHES.map((m) => `gym_aloha/assets/${m}.stl`).join(', ')} -> meshes/ (unchanged)
also read: gym_aloha/assets/vx300s_left.xml (link offsets, joint ranges, inertials), LICENSE
rebuilt by: node scripts/vendor-aloha.mjs <clone of the repository>
derived file: assets/robots/aloha.xml, written by the same script. Against gym-aloha's MJCF it
  - places both arms side by side at the near table edge facing +x, bases at (0, +-0.3, 0)
    (RoboTwin's aloha-agilex layout), table top at z = 0, RoboTwin's 1.2 x 0.7 m table;
  - collides every link through capsules/boxes/finger pads (group 3) and keeps the meshes visual
    only (group 2, contype 0, conaffinity 0);
  - removes the joints' friction losses, adds gravity compensation to every link and replaces the
    actuators with position servos over the original joint ranges;
  - re-bases the finger slides so 0 is closed (range 0..0.036 m each), couples them by an
    equality and drives their sum (the opening, 0..0.072 m) through one tendon actuator;
  - adds TCP sites between the finger pads, head/front/top/wrist cameras and a home keyframe;
  - drops the AR tag, the pillar cameras, the tabletop mesh and the task bodies.
`,
);
console.log(`vendored gym-aloha ${commit.slice(0, 12)}: ${MESHES.length} meshes -> assets/third_party/aloha/, wrote assets/robots/aloha.xml`);
