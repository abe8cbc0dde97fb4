/**
 * Texture coordinates from MuJoCo's model to three's geometry: a mesh's own (mesh_texcoord, per face
 * corner through mesh_facetexcoord) and the ones MuJoCo's renderer projects onto geoms without them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as THREE from 'three/webgpu';
import { buildScene, type MujocoScene } from '../../../src-shared/scene/builder';
import { float32ToBase64, uint32ToBase64 } from '../../../src-shared/scene/base64';
import { SceneDescription, type SceneMesh } from '../../../src-shared/scene/description';
import { createMeshGeometry } from '../../../src-shared/scene/geometry';
import { packageRoot } from '../paths';
import { Sim } from '../sim/sim';
import { extractSceneDescription, type SceneModelSource } from './sceneDescription';

const XML_PATH = join(packageRoot(), 'tests', 'fixtures', 'render', 'textured.xml');

interface TexcoordModel {
  mesh_texcoordadr: ArrayLike<number>;
  mesh_texcoordnum: ArrayLike<number>;
  mesh_texcoord: ArrayLike<number>;
  mesh_faceadr: ArrayLike<number>;
  mesh_facenum: ArrayLike<number>;
  mesh_facetexcoord: ArrayLike<number>;
}

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

const meshNamed = (name: string): SceneMesh => {
  const m = desc.meshes.find((x) => x.name === name);
  if (!m) throw new Error(`no mesh ${name}`);
  return m;
};
const geometryOf = (geomName: string): THREE.BufferGeometry => {
  const g = desc.geoms.find((x) => x.name === geomName);
  const obj = g && scene.geoms.get(g.id);
  if (!obj) throw new Error(`no geom ${geomName}`);
  return (obj as THREE.Mesh).geometry;
};

describe('mesh texture coordinates', () => {
  it("carry MuJoCo's texcoords into the description and one uv per face corner into the geometry", () => {
    const m = sim.model as unknown as TexcoordModel;
    const id = sim.id('mesh', 'slab');
    const adr = m.mesh_texcoordadr[id];
    const num = m.mesh_texcoordnum[id];
    expect(adr).toBeGreaterThanOrEqual(0);
    expect(num).toBe(8);
    const mujocoUv = Array.from(m.mesh_texcoord).slice(2 * adr, 2 * (adr + num));
    // the fixture's own values: MuJoCo keeps them as written
    expect(mujocoUv).toEqual([0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1]);

    const slab = meshNamed('slab');
    expect(slab.texcoordsB64).toBe(float32ToBase64(Float32Array.from(mujocoUv)));
    expect(slab.faceTexcoordsB64).toBe(''); // one texcoord per vertex, as in the MJCF

    const uv = geometryOf('slab').getAttribute('uv');
    expect(uv).toBeDefined();
    const fadr = m.mesh_faceadr[id];
    const nface = m.mesh_facenum[id];
    expect(uv.count).toBe(3 * nface);
    for (let c = 0; c < 3 * nface; c++) {
      const t = m.mesh_facetexcoord[3 * fadr + c];
      expect([uv.getX(c), uv.getY(c)], `corner ${c}`).toEqual([mujocoUv[2 * t], mujocoUv[2 * t + 1]]);
    }
  });

  it('sends texcoords only for meshes a geom draws with a texture, and survives JSON and the schema', () => {
    expect(meshNamed('plain').texcoordsB64).toBeUndefined(); // has texcoords, drawn grey
    expect(meshNamed('bare').texcoordsB64).toBeUndefined(); // textured, has none
    expect(geometryOf('plain').getAttribute('uv')).toBeUndefined();
    const again = SceneDescription.parse(JSON.parse(JSON.stringify(desc)));
    expect(JSON.stringify(again)).toBe(JSON.stringify(desc));
  });

  it("follows a face's own texcoord indices where they differ from its vertex indices (seams)", () => {
    // one quad, two triangles sharing vertices 0 and 2 but not their texcoords
    const mesh: SceneMesh = {
      id: 0,
      name: 'seam',
      vertexCount: 4,
      faceCount: 2,
      verticesB64: float32ToBase64(Float32Array.from([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0])),
      facesB64: uint32ToBase64(Uint32Array.from([0, 1, 2, 0, 2, 3])),
      normalsB64: float32ToBase64(Float32Array.from([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1])),
      faceNormalsB64: '',
      texcoordsB64: float32ToBase64(Float32Array.from([0, 0, 0.5, 0, 0.5, 1, 0.6, 0, 0.6, 1, 1, 1])),
      faceTexcoordsB64: uint32ToBase64(Uint32Array.from([0, 1, 2, 3, 4, 5])),
    };
    const uv = createMeshGeometry(mesh).getAttribute('uv');
    expect(Array.from(uv.array as Float32Array)).toEqual([0, 0, 0.5, 0, 0.5, 1, 0.6, 0, 0.6, 1, 1, 1].map(Math.fround));
    expect(() => createMeshGeometry({ ...mesh, faceTexcoordsB64: uint32ToBase64(Uint32Array.from([0, 1, 2, 3, 4, 6])) })).toThrow(/texcoord 6 of 6/);
  });
});

describe('projected texture coordinates (geoms without their own)', () => {
  /** MuJoCo's object-linear texgen (render_gl3.c settexture): s = x·rx/2 − 1/2, t = −y·ry/2 − 1/2. */
  const expectProjected = (geomName: string, sx: number, sy: number) => {
    const geo = geometryOf(geomName);
    const pos = geo.getAttribute('position');
    const uv = geo.getAttribute('uv');
    expect(uv.count).toBe(pos.count);
    for (let i = 0; i < pos.count; i++) {
      expect(uv.getX(i)).toBeCloseTo(pos.getX(i) * sx - 0.5, 5);
      expect(uv.getY(i)).toBeCloseTo(-pos.getY(i) * sy - 0.5, 5);
    }
  };

  it('spans texrepeat tiles over a box of size 0.1 (texuniform off)', () => {
    expectProjected('box', 0.5 / 0.1, 0.5 / 0.1);
  });

  it('repeats every 2 / texrepeat metres on a plane with texuniform (texrepeat 2 4)', () => {
    expectProjected('ground', 0.5 * 2, 0.5 * 4);
  });

  it("scales over a mesh's geom size when the mesh has no texcoords", () => {
    const g = desc.geoms.find((x) => x.name === 'bare');
    expect(g).toBeDefined();
    if (g) expectProjected('bare', 0.5 / g.size[0], 0.5 / g.size[1]);
  });
});
