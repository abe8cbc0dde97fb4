/**
 * MuJoCo's cube textures from the model to three: they travel as MuJoCo stores them (six faces, or
 * one face every side repeats) and geoms drawn with them carry MuJoCo's cube texture coordinate,
 * the object-space position (times the size with texuniform), into a cube map lookup.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as THREE from 'three/webgpu';
import { buildScene, type MujocoScene } from '../../../src-shared/scene/builder';
import { bytesToBase64 } from '../../../src-shared/scene/base64';
import { CUBE_COORD_ATTRIBUTE, createCubeTexture } from '../../../src-shared/scene/cubeTexture';
import { SceneDescription, type SceneTexture } from '../../../src-shared/scene/description';
import { packageRoot } from '../paths';
import { Sim } from '../sim/sim';
import { extractSceneDescription, type SceneModelSource } from './sceneDescription';

const FIXTURES = join(packageRoot(), 'tests', 'fixtures', 'render');

interface TextureModel {
  ntex: number;
  names: ArrayLike<number>;
  name_texadr: ArrayLike<number>;
  tex_type: ArrayLike<number>;
  tex_width: ArrayLike<number>;
  tex_height: ArrayLike<number>;
  tex_adr: ArrayLike<number>;
  tex_data: Uint8Array;
}

let sim: Sim;
let desc: SceneDescription;
let scene: MujocoScene;

beforeAll(async () => {
  sim = await Sim.load(join(FIXTURES, 'cube-textured.xml'));
  sim.forward();
  desc = extractSceneDescription(sim.model as SceneModelSource);
  scene = buildScene(desc);
});
afterAll(() => {
  scene?.dispose();
  sim?.dispose();
});

/** MuJoCo's id of a texture, read from the model's own names (Sim.id has no texture kind). */
function textureId(name: string): number {
  const m = sim.model as unknown as TextureModel;
  for (let i = 0; i < m.ntex; i++) {
    let s = '';
    for (let k = m.name_texadr[i]; m.names[k] !== 0; k++) s += String.fromCharCode(m.names[k]);
    if (s === name) return i;
  }
  throw new Error(`no texture ${name} in the model`);
}

const textureNamed = (name: string): SceneTexture => {
  const t = desc.textures.find((x) => x.name === name);
  if (!t) throw new Error(`no texture ${name}; sent: ${desc.textures.map((x) => x.name).join(', ')}`);
  return t;
};
const meshOf = (geomName: string): THREE.Mesh => {
  const g = desc.geoms.find((x) => x.name === geomName);
  const obj = g && scene.geoms.get(g.id);
  if (!obj) throw new Error(`no geom ${geomName}`);
  return obj as THREE.Mesh;
};

describe('cube textures in the scene description', () => {
  it("travel as MuJoCo stores them: a grid's six faces, one repeated face, a builtin, faces from files", () => {
    const m = sim.model as unknown as TextureModel;
    const sizes = { faces: [8, 48], face: [8, 8], checker: [16, 96], sides: [8, 48] };
    for (const [name, [w, h]] of Object.entries(sizes)) {
      const t = textureNamed(name);
      const id = textureId(name);
      expect(m.tex_type[id], name).toBe(1); // mjTEXTURE_CUBE
      expect(t, name).toMatchObject({ id, type: 'cube', width: w, height: h, nchannel: 3 });
      expect(t.dataB64, name).toBe(bytesToBase64(m.tex_data.subarray(m.tex_adr[id], m.tex_adr[id] + w * h * 3)));
      const mat = desc.materials.find((x) => x.textureId === id);
      expect(mat, name).toBeDefined();
    }
    const again = SceneDescription.parse(JSON.parse(JSON.stringify(desc)));
    expect(JSON.stringify(again)).toBe(JSON.stringify(desc));
  });

  it("become three cube textures face by face in GL's order, a repeated face on all six", () => {
    const faces = createCubeTexture(textureNamed('faces'));
    const m = sim.model as unknown as TextureModel;
    const adr = m.tex_adr[textureId('faces')];
    expect(faces.images).toHaveLength(6);
    for (let f = 0; f < 6; f++) {
      const data = (faces.images[f] as THREE.DataTexture).image.data as Uint8Array;
      // the face's last texel, RGB as MuJoCo stores it, opaque
      const o = adr + (f * 64 + 63) * 3;
      expect(Array.from(data.subarray(63 * 4, 64 * 4)), `face ${f}`).toEqual([m.tex_data[o], m.tex_data[o + 1], m.tex_data[o + 2], 255]);
    }
    const face = createCubeTexture(textureNamed('face'));
    expect(new Set(face.images).size).toBe(1);
    expect(face.images).toHaveLength(6);
    expect(() => createCubeTexture({ ...textureNamed('face'), height: 16 })).toThrow(/8 × 16, expected 8 × 8 or 8 × 48/);
  });
});

describe('cube texture coordinates', () => {
  const coords = (geomName: string): Array<{ p: number[]; c: number[] }> => {
    const geo = meshOf(geomName).geometry;
    const pos = geo.getAttribute('position');
    const c = geo.getAttribute(CUBE_COORD_ATTRIBUTE);
    expect(c, geomName).toBeDefined();
    expect(c.count).toBe(pos.count);
    return Array.from({ length: pos.count }, (_, i) => ({ p: [pos.getX(i), pos.getY(i), pos.getZ(i)], c: [c.getX(i), c.getY(i), c.getZ(i)] }));
  };
  const expectCoords = (geomName: string, want: (p: number[]) => number[]) => {
    for (const { p, c } of coords(geomName)) {
      const w = want(p);
      for (let k = 0; k < 3; k++) expect(c[k], `${geomName} at ${p.join(', ')}`).toBeCloseTo(w[k], 5);
    }
  };

  it('are the unit shape a primitive is drawn from: a box corner is (±1, ±1, ±1)', () => {
    expectCoords('faces', ([x, y, z]) => [x / 0.1, y / 0.15, z / 0.05]);
    expectCoords('checker', ([x, y, z]) => [x / 0.05, y / 0.05, z / 0.05]);
    expectCoords('sides', ([x, y, z]) => [x / 0.05, y / 0.05, z / 0.05]);
  });

  it('are metres in the geom frame with texuniform', () => {
    expectCoords('uniform', (p) => p);
  });

  it("follow a capsule's pieces: the cylinder scaled by half length, each cap a unit half sphere about its centre", () => {
    const r = 0.03,
      h = 0.06;
    expectCoords('capsule', ([x, y, z]) => {
      const cap = Math.abs(z) > h + 1e-7 ? Math.sign(z) : 0;
      return [x / r, y / r, cap === 0 ? z / h : cap + (z - cap * h) / r];
    });
    const zs = coords('capsule').map(({ c }) => c[2]);
    expect(Math.max(...zs)).toBeCloseTo(2, 5);
    expect(Math.min(...zs)).toBeCloseTo(-2, 5);
  });

  it('draw through a cube map lookup instead of the flat material colour', () => {
    const material = meshOf('faces').material as THREE.MeshPhongNodeMaterial;
    expect(material.colorNode).not.toBeNull();
    expect(material.map).toBeNull();
  });
});
