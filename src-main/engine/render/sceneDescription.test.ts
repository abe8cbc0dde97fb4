import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as THREE from 'three/webgpu';
import { buildScene, SHADOW_PROXY_LAYER, type MujocoScene } from '../../../src-shared/scene/builder';
import { SceneDescription } from '../../../src-shared/scene/description';
import { packageRoot } from '../paths';
import { Sim } from '../sim/sim';
import { extractSceneDescription, type SceneModelSource } from './sceneDescription';

const XML_PATH = join(packageRoot(), 'tests', 'fixtures', 'render', 'primitives.xml');
let sim: Sim;
let desc: SceneDescription;
let scene: MujocoScene;

beforeAll(async () => {
  sim = await Sim.loadString(readFileSync(XML_PATH, 'utf8'));
  sim.forward();
  desc = extractSceneDescription(sim.model as SceneModelSource);
  scene = buildScene(desc);
});
afterAll(() => {
  scene?.dispose();
  sim?.dispose();
});

const geom = (name: string) => {
  const g = desc.geoms.find((x) => x.name === name);
  if (!g) throw new Error(`no geom ${name}`);
  return g;
};

describe('extractSceneDescription', () => {
  it('describes bodies, every geom type, materials, meshes, lights and cameras', () => {
    expect(desc.modelName).toBe('render-primitives');
    expect(desc.nbody).toBe(sim.nbody);
    expect(desc.bodies.map((b) => b.name)).toContain('red_box');
    expect(new Set(desc.geoms.map((g) => g.type))).toEqual(new Set(['plane', 'box', 'cylinder', 'sphere', 'capsule', 'ellipsoid', 'mesh']));
    expect(geom('red_box').rgba.map((v) => +v.toFixed(3))).toEqual([0.9, 0.1, 0.1, 1]);
    // a geom with a material and the default rgba takes the material's colour
    expect(geom('green_cyl').rgba.map((v) => +v.toFixed(3))).toEqual([0.1, 0.8, 0.1, 1]);
    expect(geom('floor').materialId).toBeGreaterThanOrEqual(0);
    expect(desc.textures).toHaveLength(1);
    expect(desc.textures[0]).toMatchObject({ width: 64, height: 64, nchannel: 3 });
    expect(desc.meshes).toHaveLength(1);
    expect(desc.meshes[0]).toMatchObject({ name: 'tetra', vertexCount: 4, faceCount: 4 });
    expect(desc.lights.map((l) => [l.name, l.type, l.castShadow])).toEqual([['sun', 'directional', true], ['spot', 'spot', false]]);
    expect(desc.cameras.map((c) => c.name)).toEqual(['front', 'top', 'side', 'wrist']);
    expect(desc.cameras[3].bodyId).toBe(sim.id('body', 'arm'));
    expect(desc.visual.headlight.ambient.map((v) => +v.toFixed(3))).toEqual([0.3, 0.3, 0.3]);
  });

  it('survives the protocol: JSON and the zod schema give back the same description', () => {
    const again = SceneDescription.parse(JSON.parse(JSON.stringify(desc)));
    expect(JSON.stringify(again)).toBe(JSON.stringify(desc));
  });
});

describe('MujocoScene', () => {
  it('hides collision-only geoms (group 3) and shows groups 0–2, as MuJoCo does by default', () => {
    expect(scene.geoms.get(geom('table_collision').id)?.visible).toBe(false);
    expect(scene.geoms.get(geom('table_top').id)?.visible).toBe(true);
    scene.setVisibleGroups([0, 3]);
    expect(scene.geoms.get(geom('table_collision').id)?.visible).toBe(true);
    scene.setVisibleGroups([0, 1, 2]);
  });

  it('casts mesh shadows through merged position-only proxies that views never draw', () => {
    const tetra = scene.geoms.get(geom('tetra').id);
    expect(tetra?.castShadow).toBe(false);
    const proxy = tetra?.children.find((c) => c.name.endsWith(':shadow')) as THREE.Mesh | undefined;
    expect(proxy?.castShadow).toBe(true);
    expect(proxy?.layers.isEnabled(SHADOW_PROXY_LAYER)).toBe(true);
    expect(proxy?.layers.isEnabled(0)).toBe(false);
    // 4 faces × 3 corners unrolled for shading, 4 distinct corners for the shadow
    expect(tetra?.geometry.getAttribute('position').count).toBe(12);
    expect(proxy?.geometry.getAttribute('position').count).toBe(4);
    expect(proxy?.geometry.getIndex()?.count).toBe(12);
    // primitives cast shadows themselves
    expect(scene.geoms.get(geom('red_box').id)?.castShadow).toBe(true);
  });

  it('maps MuJoCo z-up to three y-up at the root', () => {
    const v = scene.toThreeWorld(1, 2, 3, new THREE.Vector3());
    expect([v.x, v.y, v.z].map((x) => +x.toFixed(6))).toEqual([1, 3, -2]);
  });

  it('places bodies from the pose stream and fixed cameras where MuJoCo computes them', () => {
    sim.data.qpos[sim.model.jnt_qposadr[sim.id('joint', 'slide')]] = 0.15;
    sim.forward();
    scene.applyPoses(sim.bodyPoses());
    const armBody = scene.bodies[sim.id('body', 'arm')];
    expect(armBody.position.y).toBeCloseTo(0.15, 6);
    const camXpos = sim.data.cam_xpos as Float64Array;
    const camXmat = sim.data.cam_xmat as Float64Array;
    const mat = new THREE.Matrix4();
    for (const c of scene.cameras) {
      // composed in applyPoses from the body pose and the camera's local pose…
      const composedPos = c.camera.position.clone();
      const composedQuat = c.camera.quaternion.clone();
      // …must equal MuJoCo's own cam_xpos / cam_xmat
      for (let k = 0; k < 3; k++) expect(composedPos.getComponent(k)).toBeCloseTo(camXpos[3 * c.id + k], 5);
      const x = Array.from(camXmat.subarray(9 * c.id, 9 * c.id + 9));
      mat.set(x[0], x[1], x[2], 0, x[3], x[4], x[5], 0, x[6], x[7], x[8], 0, 0, 0, 0, 1);
      const q = new THREE.Quaternion().setFromRotationMatrix(mat);
      expect(Math.abs(q.dot(composedQuat))).toBeCloseTo(1, 5);
    }
  });

  it('projects a point straight ahead of a camera to the image centre', () => {
    const front = scene.camera('front').camera;
    scene.applyPoses(sim.bodyPoses());
    // 1 m along the front camera's -z axis, in MuJoCo world coordinates
    const id = scene.camera('front').id;
    const xm = sim.data.cam_xmat as Float64Array;
    const xp = sim.data.cam_xpos as Float64Array;
    const p: [number, number, number] = [0, 1, 2].map((r) => xp[3 * id + r] - xm[9 * id + 3 * r + 2]) as [number, number, number];
    const px = scene.projectToPixel(front, p, 320, 240);
    expect(px?.x).toBeCloseTo(160, 3);
    expect(px?.y).toBeCloseTo(120, 3);
    expect(() => scene.camera('nope')).toThrow(/no camera "nope".*front, top, side, wrist/);
  });
});
