/**
 * What a view needs to draw a MuJoCo model: sent once per model load (the hot path is the pose
 * stream, nbody × 7 floats) and used in-process by the engine's headless renderer. Everything is
 * in MuJoCo's own frame (z up, metres, quaternions w x y z); only builder.ts converts to three.js.
 * Bulk arrays travel as base64 of little-endian float32/uint32 so a Menagerie arm stays a few MB.
 */
import { z } from 'zod';

const Vec3 = z.tuple([z.number(), z.number(), z.number()]);
const Quat = z.tuple([z.number(), z.number(), z.number(), z.number()]);
const Rgba = z.tuple([z.number(), z.number(), z.number(), z.number()]);
const Id = z.number().int().min(0);
/** -1 where MuJoCo has "none". */
const OptionalId = z.number().int().min(-1);

export const SCENE_SCHEMA_VERSION = 1;

/** MuJoCo's default `mjvOption.geomgroup`: groups 0–2 drawn, 3–5 (collision-only by convention) hidden. */
export const DEFAULT_VISIBLE_GROUPS: readonly number[] = [0, 1, 2];

export const SceneBody = z.object({
  id: Id,
  name: z.string(),
  /** Parent body id; the world body (0) is its own parent. */
  parentId: Id,
  /**
   * World pose of a body welded to the world (no joint between it and the world, not mocap), which
   * no simulation moves; absent for the world body and for bodies that move. Lets a view merge
   * such bodies' geometry into few draws.
   */
  staticPose: z.object({ posM: Vec3, quat: Quat }).optional(),
});
export type SceneBody = z.infer<typeof SceneBody>;

export const SceneGeomType = z.enum(['plane', 'hfield', 'sphere', 'capsule', 'ellipsoid', 'cylinder', 'box', 'mesh']);
export type SceneGeomType = z.infer<typeof SceneGeomType>;

export const SceneGeom = z.object({
  id: Id,
  name: z.string(),
  bodyId: Id,
  type: SceneGeomType,
  /** MuJoCo geom_size: half sizes / radius, half length, as the type defines. */
  size: Vec3,
  /** Pose relative to the body frame. */
  posM: Vec3,
  quat: Quat,
  /** Resolved colour: the geom's rgba, or its material's where the geom keeps the default colour (MuJoCo's rule). */
  rgba: Rgba,
  materialId: OptionalId,
  meshId: OptionalId,
  group: z.number().int(),
  contype: z.number().int(),
  conaffinity: z.number().int(),
});
export type SceneGeom = z.infer<typeof SceneGeom>;

export const SceneMaterial = z.object({
  id: Id,
  name: z.string(),
  rgba: Rgba,
  specular: z.number(),
  shininess: z.number(),
  reflectance: z.number(),
  emission: z.number(),
  /** -1 when the model leaves PBR parameters unset. */
  metallic: z.number(),
  roughness: z.number(),
  textureId: OptionalId,
  texRepeat: z.tuple([z.number(), z.number()]),
  texUniform: z.boolean(),
});
export type SceneMaterial = z.infer<typeof SceneMaterial>;

export const SceneTexture = z.object({
  id: Id,
  name: z.string(),
  /**
   * Only textures that a material uses travel (the skybox is reduced to its mean colour). 'cube':
   * MuJoCo's cube (or skybox-type) texture, drawn by object position (./cubeTexture); its height
   * is 6 × width (faces +x, −x, +y, −y, +z, −z, each width × width) or width (one face, repeated).
   */
  type: z.enum(['2d', 'cube']),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  nchannel: z.number().int().min(1).max(4),
  /** base64 of width × height × nchannel bytes, row-major (MuJoCo's tex_data). */
  dataB64: z.string(),
});
export type SceneTexture = z.infer<typeof SceneTexture>;

export const SceneMesh = z.object({
  id: Id,
  name: z.string(),
  vertexCount: z.number().int().min(0),
  faceCount: z.number().int().min(0),
  /** float32 xyz per vertex, in the mesh frame (geom pos/quat already account for MuJoCo's re-centring). */
  verticesB64: z.string(),
  /** uint32 vertex indices, 3 per face. */
  facesB64: z.string(),
  /** float32 xyz per normal. */
  normalsB64: z.string(),
  /** uint32 normal indices, 3 per face (one per face corner); '' when they equal the vertex indices. */
  faceNormalsB64: z.string(),
  /**
   * float32 (u, v) per texture coordinate, as MuJoCo stores them (v = 0 is the texture's first row);
   * absent when the mesh has none or no geom draws it with a texture.
   */
  texcoordsB64: z.string().optional(),
  /** uint32 texcoord indices, 3 per face; '' when they equal the vertex indices. Present with texcoordsB64. */
  faceTexcoordsB64: z.string().optional(),
});
export type SceneMesh = z.infer<typeof SceneMesh>;

export const SceneLight = z.object({
  id: Id,
  name: z.string(),
  bodyId: Id,
  type: z.enum(['spot', 'directional', 'point']),
  /** Pose in the body frame. */
  posM: Vec3,
  dir: Vec3,
  castShadow: z.boolean(),
  active: z.boolean(),
  diffuse: Vec3,
  ambient: Vec3,
  specular: Vec3,
  cutoffDeg: z.number(),
  exponent: z.number(),
});
export type SceneLight = z.infer<typeof SceneLight>;

export const SceneCamera = z.object({
  id: Id,
  name: z.string(),
  bodyId: Id,
  /** Pose in the body frame; the camera looks along its -z with +y up, as in MuJoCo and three.js. */
  posM: Vec3,
  quat: Quat,
  fovyDeg: z.number().positive(),
  /** MuJoCo cam_mode: 'fixed' follows its body; the others need the engine's cam_xpos/cam_xmat. */
  mode: z.enum(['fixed', 'track', 'trackcom', 'targetbody', 'targetbodycom']),
});
export type SceneCamera = z.infer<typeof SceneCamera>;

export const SceneVisual = z.object({
  headlight: z.object({ active: z.boolean(), ambient: Vec3, diffuse: Vec3, specular: Vec3 }),
  /** Clip planes in metres (MuJoCo stores them relative to the model's extent). */
  znearM: z.number().positive(),
  zfarM: z.number().positive(),
  extentM: z.number().positive(),
  centerM: Vec3,
  shadowSize: z.number().int().positive(),
  /** Field of view of MuJoCo's free camera, for a view with no model camera. */
  freeFovyDeg: z.number().positive(),
  /** Mean colour of the model's skybox texture (the background), or null for MuJoCo's black. */
  skyboxRgb: Vec3.nullable(),
});
export type SceneVisual = z.infer<typeof SceneVisual>;

export const SceneDescription = z.object({
  schemaVersion: z.literal(SCENE_SCHEMA_VERSION),
  modelName: z.string(),
  nbody: z.number().int().positive(),
  bodies: z.array(SceneBody),
  geoms: z.array(SceneGeom),
  materials: z.array(SceneMaterial),
  textures: z.array(SceneTexture),
  meshes: z.array(SceneMesh),
  lights: z.array(SceneLight),
  cameras: z.array(SceneCamera),
  visual: SceneVisual,
});
export type SceneDescription = z.infer<typeof SceneDescription>;
