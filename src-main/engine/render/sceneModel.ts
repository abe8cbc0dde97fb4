/** What the scene description reads from a compiled model, as a structural type tests can also fill. */
type Num = ArrayLike<number>;

/** The parts of @mujoco/mujoco's MjModel that extractSceneDescription reads (its typings declare them `any`). */
export interface SceneModelSource {
  nbody: number;
  ngeom: number;
  nmat: number;
  nmesh: number;
  nlight: number;
  ncam: number;
  ntex: number;
  names: Num;
  name_bodyadr: Num;
  name_geomadr: Num;
  name_matadr: Num;
  name_meshadr: Num;
  name_lightadr: Num;
  name_camadr: Num;
  name_texadr: Num;
  body_parentid: Num;
  body_weldid: Num;
  body_mocapid: Num;
  body_pos: Num;
  body_quat: Num;
  geom_type: Num;
  geom_bodyid: Num;
  geom_size: Num;
  geom_pos: Num;
  geom_quat: Num;
  geom_rgba: Num;
  geom_matid: Num;
  geom_dataid: Num;
  geom_group: Num;
  geom_contype: Num;
  geom_conaffinity: Num;
  mat_rgba: Num;
  mat_specular: Num;
  mat_shininess: Num;
  mat_reflectance: Num;
  mat_emission: Num;
  mat_metallic: Num;
  mat_roughness: Num;
  mat_texid: Num;
  mat_texrepeat: Num;
  tex_type: Num;
  tex_width: Num;
  tex_height: Num;
  tex_nchannel: Num;
  tex_adr: Num;
  tex_data: Uint8Array;
  mesh_vertadr: Num;
  mesh_vertnum: Num;
  mesh_vert: Float32Array;
  mesh_faceadr: Num;
  mesh_facenum: Num;
  mesh_face: Num;
  mesh_normaladr: Num;
  mesh_normalnum: Num;
  mesh_normal: Float32Array;
  mesh_facenormal: Num;
  /** -1 for a mesh without texture coordinates. */
  mesh_texcoordadr: Num;
  mesh_texcoordnum: Num;
  mesh_texcoord: Float32Array;
  /** Per face corner, relative to the mesh's mesh_texcoordadr (as mesh_face is to mesh_vertadr). */
  mesh_facetexcoord: Num;
  light_bodyid: Num;
  light_type: Num;
  light_pos: Num;
  light_dir: Num;
  light_diffuse: Num;
  light_ambient: Num;
  light_specular: Num;
  light_cutoff: Num;
  light_exponent: Num;
  cam_bodyid: Num;
  cam_pos: Num;
  cam_quat: Num;
  cam_fovy: Num;
  cam_mode: Num;
  vis: {
    headlight: { active: number; ambient: Num; diffuse: Num; specular: Num };
    map: { znear: number; zfar: number };
    quality: { shadowsize: number };
    global: { fovy: number };
  };
  stat: { extent: number; center: Num };
  // The bool arrays (light_castshadow, light_active, mat_texuniform) have no binding in
  // @mujoco/mujoco 3.14 (reading them throws a BindingError); the per-element accessors work.
  light(id: number): { castshadow: unknown; active: unknown; delete(): void };
  mat(id: number): { texuniform: unknown; delete(): void };
}
