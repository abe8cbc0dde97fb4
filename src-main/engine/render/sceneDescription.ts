/**
 * Reads a SceneDescription out of a compiled MjModel. Only the model is needed (no MjData), so a
 * description can be made once per load and sent to every view.
 */
import {
  DEFAULT_VISIBLE_GROUPS,
  SCENE_SCHEMA_VERSION,
  type SceneBody,
  type SceneCamera,
  type SceneDescription,
  type SceneGeom,
  type SceneGeomType,
  type SceneLight,
  type SceneMaterial,
} from '../../../src-shared/scene/description';
import { colourTexture, extractMesh, extractTexture, is2dTexture, readName, skyboxMean } from './sceneAssets';
import type { SceneModelSource } from './sceneModel';
import { qmul, qrotate, type Quat } from '../../../src-shared/quat';

type Num = ArrayLike<number>;

export type { SceneModelSource };

function truthy(v: unknown): boolean {
  if (v !== null && typeof v === 'object' && 'length' in v) return (v as ArrayLike<number>)[0] !== 0;
  return Boolean(v);
}

/** Reads one field through a MuJoCo accessor and frees the accessor (each is a WASM handle). */
function viaAccessor<A extends { delete(): void }, T>(acc: A, read: (a: A) => T): T {
  try {
    return read(acc);
  } finally {
    acc.delete();
  }
}

const GEOM_TYPES: Record<number, SceneGeomType> = {
  0: 'plane',
  1: 'hfield',
  2: 'sphere',
  3: 'capsule',
  4: 'ellipsoid',
  5: 'cylinder',
  6: 'box',
  7: 'mesh',
};
const CAM_MODES = ['fixed', 'track', 'trackcom', 'targetbody', 'targetbodycom'] as const;
const LIGHT_TYPES: Record<number, SceneLight['type']> = { 0: 'spot', 1: 'directional', 2: 'point' };

const v3 = (a: Num, i: number): [number, number, number] => [a[3 * i], a[3 * i + 1], a[3 * i + 2]];
const v4 = (a: Num, i: number): [number, number, number, number] => [a[4 * i], a[4 * i + 1], a[4 * i + 2], a[4 * i + 3]];

type Vec3 = [number, number, number];

/** A child's world pose from its parent's and its own pose in the parent (MuJoCo's local2global). */
function compose(parent: { posM: Vec3; quat: Quat }, pos: Vec3, quat: Quat): { posM: Vec3; quat: Quat } {
  const q = parent.quat;
  const r = qrotate(q, pos);
  const w = qmul(q, quat);
  const n = Math.hypot(w[0], w[1], w[2], w[3]) || 1;
  return { posM: [parent.posM[0] + r[0], parent.posM[1] + r[1], parent.posM[2] + r[2]], quat: [w[0] / n, w[1] / n, w[2] / n, w[3] / n] };
}

/** MuJoCo keeps a material's colour unless the geom sets an rgba other than the default grey. */
function resolveRgba(m: SceneModelSource, g: number): [number, number, number, number] {
  const own = v4(m.geom_rgba, g);
  const mat = m.geom_matid[g];
  const isDefault = Math.abs(own[0] - 0.5) < 1e-6 && Math.abs(own[1] - 0.5) < 1e-6 && Math.abs(own[2] - 0.5) < 1e-6 && own[3] === 1;
  return mat >= 0 && isDefault ? v4(m.mat_rgba, mat) : own;
}

const ARRAY_FIELDS = [
  'names',
  'name_bodyadr',
  'name_geomadr',
  'name_matadr',
  'name_meshadr',
  'name_lightadr',
  'name_camadr',
  'name_texadr',
  'body_parentid',
  'body_weldid',
  'body_mocapid',
  'body_pos',
  'body_quat',
  'geom_type',
  'geom_bodyid',
  'geom_size',
  'geom_pos',
  'geom_quat',
  'geom_rgba',
  'geom_matid',
  'geom_dataid',
  'geom_group',
  'geom_contype',
  'geom_conaffinity',
  'mat_rgba',
  'mat_specular',
  'mat_shininess',
  'mat_reflectance',
  'mat_emission',
  'mat_metallic',
  'mat_roughness',
  'mat_texid',
  'mat_texrepeat',
  'tex_type',
  'tex_width',
  'tex_height',
  'tex_nchannel',
  'tex_adr',
  'tex_data',
  'mesh_vertadr',
  'mesh_vertnum',
  'mesh_vert',
  'mesh_faceadr',
  'mesh_facenum',
  'mesh_face',
  'mesh_normaladr',
  'mesh_normalnum',
  'mesh_normal',
  'mesh_facenormal',
  'mesh_texcoordadr',
  'mesh_texcoordnum',
  'mesh_texcoord',
  'mesh_facetexcoord',
  'light_bodyid',
  'light_type',
  'light_pos',
  'light_dir',
  'light_diffuse',
  'light_ambient',
  'light_specular',
  'light_cutoff',
  'light_exponent',
  'cam_bodyid',
  'cam_pos',
  'cam_quat',
  'cam_fovy',
  'cam_mode',
] as const;

/**
 * Each MjModel array property builds a fresh view through embind on every read (microseconds
 * each), so per-element loops over the model itself take seconds on a Menagerie arm: read every
 * array once. Views stay valid as long as nothing allocates in the WASM heap meanwhile.
 */
function snapshotArrays(m: SceneModelSource): SceneModelSource {
  const out: Record<string, unknown> = {};
  for (const k of ARRAY_FIELDS) out[k] = m[k];
  for (const k of ['nbody', 'ngeom', 'nmat', 'nmesh', 'nlight', 'ncam', 'ntex', 'vis', 'stat'] as const) out[k] = m[k];
  out.light = m.light.bind(m);
  out.mat = m.mat.bind(m);
  return out as unknown as SceneModelSource;
}

/** `modelName` defaults to the MJCF's model attribute. */
export function extractSceneDescription(model: SceneModelSource, modelName = ''): SceneDescription {
  // Accessor handles allocate in the WASM heap, which may move it: read them before any view.
  const lightFlags = Array.from({ length: model.nlight }, (_, i) =>
    viaAccessor(model.light(i), (a) => ({ castShadow: truthy(a.castshadow), active: truthy(a.active) })),
  );
  const texUniform = Array.from({ length: model.nmat }, (_, i) => viaAccessor(model.mat(i), (a) => truthy(a.texuniform)));
  const m = snapshotArrays(model);
  const bodies: SceneBody[] = Array.from({ length: m.nbody }, (_, i) => ({ id: i, name: readName(m, m.name_bodyadr[i]), parentId: m.body_parentid[i] }));
  // MuJoCo orders parents before children, so a welded body's parent pose is known when it is reached
  for (let i = 1; i < m.nbody; i++) {
    if (m.body_weldid[i] !== 0 || m.body_mocapid[i] !== -1) continue;
    const parent = m.body_parentid[i] === 0 ? { posM: [0, 0, 0] as Vec3, quat: [1, 0, 0, 0] as Quat } : bodies[m.body_parentid[i]].staticPose;
    if (parent) bodies[i].staticPose = compose(parent, v3(m.body_pos, i), v4(m.body_quat, i));
  }

  const geoms: SceneGeom[] = [];
  const usedMeshes = new Set<number>();
  const texturedMeshes = new Set<number>();
  // Textures travel for the materials drawn geoms use: a style file's unused materials (LIBERO's
  // 512² flat grey, its table-leg wood) would be most of a scene's texture bytes.
  const drawnMaterials = new Set<number>();
  for (let g = 0; g < m.ngeom; g++) {
    const type = GEOM_TYPES[m.geom_type[g]];
    if (!type) continue; // SDF geoms have no renderable surface here
    const meshId = type === 'mesh' ? m.geom_dataid[g] : -1;
    const drawn = DEFAULT_VISIBLE_GROUPS.includes(m.geom_group[g]);
    if (drawn && m.geom_matid[g] >= 0) drawnMaterials.add(m.geom_matid[g]);
    // Meshes only hidden groups use would cost bytes for nothing; collision copies are common.
    if (meshId >= 0 && drawn) {
      usedMeshes.add(meshId);
      if (is2dTexture(m, colourTexture(m, m.geom_matid[g]))) texturedMeshes.add(meshId);
    }
    geoms.push({
      id: g,
      name: readName(m, m.name_geomadr[g]),
      bodyId: m.geom_bodyid[g],
      type,
      size: v3(m.geom_size, g),
      posM: v3(m.geom_pos, g),
      quat: v4(m.geom_quat, g),
      rgba: resolveRgba(m, g),
      materialId: m.geom_matid[g],
      meshId,
      group: m.geom_group[g],
      contype: m.geom_contype[g],
      conaffinity: m.geom_conaffinity[g],
    });
  }

  const materials: SceneMaterial[] = [];
  const usedTextures = new Set<number>();
  for (let i = 0; i < m.nmat; i++) {
    const tex = colourTexture(m, i);
    if (tex >= 0 && drawnMaterials.has(i)) usedTextures.add(tex);
    materials.push({
      id: i,
      name: readName(m, m.name_matadr[i]),
      rgba: v4(m.mat_rgba, i),
      specular: m.mat_specular[i],
      shininess: m.mat_shininess[i],
      reflectance: m.mat_reflectance[i],
      emission: m.mat_emission[i],
      metallic: m.mat_metallic[i],
      roughness: m.mat_roughness[i],
      textureId: tex,
      texRepeat: [m.mat_texrepeat[2 * i], m.mat_texrepeat[2 * i + 1]],
      texUniform: texUniform[i],
    });
  }

  const lights: SceneLight[] = [];
  for (let i = 0; i < m.nlight; i++) {
    lights.push({
      id: i,
      name: readName(m, m.name_lightadr[i]),
      bodyId: m.light_bodyid[i],
      type: LIGHT_TYPES[m.light_type[i]] ?? 'spot',
      posM: v3(m.light_pos, i),
      dir: v3(m.light_dir, i),
      ...lightFlags[i],
      diffuse: v3(m.light_diffuse, i),
      ambient: v3(m.light_ambient, i),
      specular: v3(m.light_specular, i),
      cutoffDeg: m.light_cutoff[i],
      exponent: m.light_exponent[i],
    });
  }

  const cameras: SceneCamera[] = [];
  for (let i = 0; i < m.ncam; i++) {
    cameras.push({
      id: i,
      name: readName(m, m.name_camadr[i]),
      bodyId: m.cam_bodyid[i],
      posM: v3(m.cam_pos, i),
      quat: v4(m.cam_quat, i),
      fovyDeg: m.cam_fovy[i],
      mode: CAM_MODES[m.cam_mode[i]] ?? 'fixed',
    });
  }

  const extentM = m.stat.extent > 0 ? m.stat.extent : 1;
  const hl = m.vis.headlight;
  return {
    schemaVersion: SCENE_SCHEMA_VERSION,
    modelName: modelName || readName(m, 0),
    nbody: m.nbody,
    bodies,
    geoms,
    materials,
    textures: [...usedTextures].sort((a, b) => a - b).map((t) => extractTexture(m, t)),
    meshes: [...usedMeshes].sort((a, b) => a - b).map((i) => extractMesh(m, i, texturedMeshes.has(i))),
    lights,
    cameras,
    visual: {
      headlight: { active: hl.active !== 0, ambient: v3(hl.ambient, 0), diffuse: v3(hl.diffuse, 0), specular: v3(hl.specular, 0) },
      znearM: m.vis.map.znear * extentM,
      zfarM: m.vis.map.zfar * extentM,
      extentM,
      centerM: v3(m.stat.center, 0),
      shadowSize: Math.max(1, m.vis.quality.shadowsize),
      freeFovyDeg: m.vis.global.fovy,
      skyboxRgb: skyboxMean(m),
    },
  };
}
