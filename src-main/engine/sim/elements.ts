/**
 * The kinds of named model element the Sim looks up, and where MuJoCo keeps each kind: its mjtObj
 * enum name (for mj_name2id), its count field and its name-address array in the model.
 */
import type { MjModel } from './mujoco';

export type ElementKind = 'body' | 'joint' | 'site' | 'geom' | 'actuator' | 'camera' | 'tendon' | 'key' | 'equality' | 'mesh' | 'sensor' | 'material';

export interface ElementFields {
  obj: string;
  count: keyof MjModel;
  /** Where this kind's names start in `model.names` (MuJoCo's name_*adr arrays). */
  nameAdr: keyof MjModel;
}

export const ELEMENTS: Record<ElementKind, ElementFields> = {
  body: { obj: 'mjOBJ_BODY', count: 'nbody', nameAdr: 'name_bodyadr' },
  joint: { obj: 'mjOBJ_JOINT', count: 'njnt', nameAdr: 'name_jntadr' },
  site: { obj: 'mjOBJ_SITE', count: 'nsite', nameAdr: 'name_siteadr' },
  geom: { obj: 'mjOBJ_GEOM', count: 'ngeom', nameAdr: 'name_geomadr' },
  actuator: { obj: 'mjOBJ_ACTUATOR', count: 'nu', nameAdr: 'name_actuatoradr' },
  camera: { obj: 'mjOBJ_CAMERA', count: 'ncam', nameAdr: 'name_camadr' },
  tendon: { obj: 'mjOBJ_TENDON', count: 'ntendon', nameAdr: 'name_tendonadr' },
  key: { obj: 'mjOBJ_KEY', count: 'nkey', nameAdr: 'name_keyadr' },
  equality: { obj: 'mjOBJ_EQUALITY', count: 'neq', nameAdr: 'name_eqadr' },
  mesh: { obj: 'mjOBJ_MESH', count: 'nmesh', nameAdr: 'name_meshadr' },
  sensor: { obj: 'mjOBJ_SENSOR', count: 'nsensor', nameAdr: 'name_sensoradr' },
  material: { obj: 'mjOBJ_MATERIAL', count: 'nmat', nameAdr: 'name_matadr' },
};
