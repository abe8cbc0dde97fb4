/**
 * SceneDescription → three.js objects, shared by the engine's headless renderer and the UI's 3D
 * view so both show the same thing. This is the one place that turns MuJoCo's z-up world into
 * three's y-up one: everything lives under `root`, rotated -90° about x; below it, all positions,
 * quaternions and sizes are MuJoCo's own.
 *
 * In a view: `const ms = buildScene(desc); scene.add(ms.root); scene.background = ms.background;`
 * then `ms.applyPoses(frame.poses)` per pose frame and `ms.useCamera(camera, w, h)` before drawing
 * (it moves MuJoCo's headlight onto that camera, which must itself be in the scene graph).
 * The renderer needs `shadowMap.enabled = true` for the model's shadows. Opaque untextured geoms
 * are drawn through per-body batches (./batches); `geoms` maps every geom id to an object with
 * `userData.geomId` for picking (batched ones on GEOM_LAYER) whose `visible` is the geom's.
 */
import * as THREE from 'three/webgpu';
import { GeomBatch, type BatchMemberInput } from './batches';
import { casterBounds, fitShadowCamera } from './shadowFit';
import { createCubeTexture, cubeColorNode, withCubeCoords } from './cubeTexture';
import { DEFAULT_VISIBLE_GROUPS, type SceneDescription, type SceneGeom, type SceneMaterial } from './description';
import {
  createMaterial,
  createMeshGeometry,
  createPrimitiveGeometry,
  createShadowProxyGeometry,
  createTexture,
  geometryKey,
  mujocoColor,
  withProjectedUv,
  type GeometryDetail,
} from './geometry';

export interface BuildOptions {
  /** Geom groups drawn; MuJoCo's default is 0–2 (3 and up hold collision-only geoms by convention). */
  visibleGroups?: readonly number[];
  /** Cap on the shadow map size (MuJoCo's default 4096 is slow on a software rasterizer). */
  maxShadowMapSize?: number;
  detail?: Partial<GeometryDetail>;
  /**
   * Merge each body's untextured opaque geoms into per-body batches (default true): far fewer
   * draw calls and vertices, which is what a software rasterizer pays for. See ./batches.
   */
  mergeBodies?: boolean;
  /**
   * Batch the geoms of bodies welded to the world (`staticPose`) with the world body's (default
   * true): a kitchen's counters and cabinets, a table, walls become one draw per shade, not one
   * per body. Only with mergeBodies.
   */
  mergeStatic?: boolean;
  /**
   * Batched mesh geoms are simplified to this cluster size (m) for drawing; 0 (default) keeps
   * every vertex. A small image cannot show detail finer than a pixel, and a software rasterizer
   * pays for every triangle: the engine's model-facing images use a few millimetres.
   */
  meshCellM?: number;
  /** Cluster size of the batches' shadow proxies (m); default 0.8% of the model extent (8 mm for the Panda). */
  shadowCellM?: number;
  /** Fit each shadow camera to the casters at every pose update (default true; see ./shadowFit). */
  fitShadows?: boolean;
}

export interface ModelCamera {
  readonly name: string;
  readonly id: number;
  readonly camera: THREE.PerspectiveCamera;
}

/** Layer of the position-only shadow casters: shadow cameras see it, views (layer 0) do not. */
export const SHADOW_PROXY_LAYER = 1;
/**
 * Layer of the per-geom stand-ins of batched geoms: nothing draws it; enable it on a Raycaster to
 * pick geoms (`userData.geomId`). Their `visible` is the geom's visibility, which the batches follow.
 */
export const GEOM_LAYER = 2;

/** Batched geoms that shade alike share one material: everything but the colour, which is per vertex. */
function batchShadeKey(g: SceneGeom, mat: SceneMaterial | undefined): string {
  const emission = mat?.emission ?? 0;
  return `${mat?.specular ?? 'd'}:${mat?.shininess ?? 'd'}:${emission}${emission > 0 ? `:${g.rgba.join(',')}` : ''}`;
}

/** MuJoCo's spot light exponent has no direct three.js match; this maps the default 10 to a soft edge. */
const spotPenumbra = (exponent: number): number => Math.min(1, Math.max(0, exponent / 50));

export class MujocoScene {
  /** Add this to a three.js scene; it carries the z-up → y-up rotation. */
  readonly root = new THREE.Group();
  readonly bodies: THREE.Group[] = [];
  /** Per geom: its mesh, or for a batched geom its undrawn stand-in (see GEOM_LAYER). */
  readonly geoms = new Map<number, THREE.Mesh>();
  /** The per-body batches that draw the batched geoms. */
  readonly batches: GeomBatch[] = [];
  readonly cameras: ModelCamera[] = [];
  readonly description: SceneDescription;
  readonly background: THREE.Color;
  private readonly headlight: THREE.DirectionalLight;
  private readonly camLocal: Array<{ pos: THREE.Vector3; quat: THREE.Quaternion; bodyId: number; fixed: boolean }> = [];
  private readonly disposables: Array<{ dispose(): void }> = [];
  private readonly lights: THREE.Light[] = [];
  private readonly tmpV = new THREE.Vector3();
  private readonly tmpQ = new THREE.Quaternion();
  private readonly tmpM = new THREE.Matrix4();
  private visibleGroups: Set<number>;
  private readonly casters: THREE.Mesh[] = [];
  private readonly shadowLights: Array<THREE.DirectionalLight | THREE.SpotLight> = [];
  private readonly casterBox = new THREE.Box3();
  private fitShadowsEnabled = false;

  constructor(desc: SceneDescription, opts: BuildOptions = {}) {
    this.description = desc;
    this.visibleGroups = new Set(opts.visibleGroups ?? DEFAULT_VISIBLE_GROUPS);
    const detail: GeometryDetail = { sphereSegments: 24, cylinderSegments: 24, ...opts.detail };
    const planeHalfSizeM = Math.max(5, 10 * desc.visual.extentM);
    const maxShadow = opts.maxShadowMapSize ?? 1024;

    this.root.name = 'mujoco-root';
    this.root.rotation.x = -Math.PI / 2;
    for (const b of desc.bodies) {
      const group = new THREE.Group();
      group.name = b.name || `body${b.id}`;
      this.root.add(group);
      this.bodies.push(group);
    }

    const textures = new Map<number, THREE.Texture>();
    for (const t of desc.textures) {
      const tex = t.type === 'cube' ? createCubeTexture(t) : createTexture(t);
      textures.set(t.id, tex);
      this.disposables.push(tex);
    }
    const meshes = new Map(desc.meshes.map((m) => [m.id, m]));
    const geometries = new Map<string, THREE.BufferGeometry | null>();
    const proxyGeometries = new Map<number, THREE.BufferGeometry>();
    const proxyMaterial = new THREE.MeshBasicNodeMaterial({ colorWrite: false });
    this.disposables.push(proxyMaterial);
    const materials = new Map<string, THREE.Material>();
    const merge = opts.mergeBodies ?? true;
    const mergeStatic = merge && (opts.mergeStatic ?? true);
    const staticMatrices = new Map<number, THREE.Matrix4>();
    const staticMatrix = (bodyId: number): THREE.Matrix4 | null => {
      const pose = mergeStatic ? desc.bodies[bodyId]?.staticPose : undefined;
      if (!pose) return null;
      let m = staticMatrices.get(bodyId);
      if (!m) {
        const q = pose.quat;
        m = new THREE.Matrix4().compose(new THREE.Vector3(...pose.posM), new THREE.Quaternion(q[1], q[2], q[3], q[0]), new THREE.Vector3(1, 1, 1));
        staticMatrices.set(bodyId, m);
      }
      return m;
    };
    const batchInputs = new Map<string, { bodyId: number; material: THREE.Material; members: BatchMemberInput[] }>();
    for (const g of desc.geoms) {
      const key = geometryKey(g, planeHalfSizeM);
      let geo = geometries.get(key);
      if (geo === undefined) {
        if (g.type === 'mesh') {
          const mesh = meshes.get(g.meshId);
          // Meshes only used by hidden (collision) geoms are not sent; such a geom stays undrawn.
          geo = mesh ? createMeshGeometry(mesh) : null;
        } else {
          geo = createPrimitiveGeometry(g, planeHalfSizeM, detail);
        }
        geometries.set(key, geo);
        if (geo) this.disposables.push(geo);
      }
      if (!geo) continue;
      const mat = g.materialId >= 0 ? desc.materials[g.materialId] : undefined;
      const texMat = mat && textures.has(mat.textureId) ? mat : undefined;
      const textured = texMat !== undefined;
      const texture = texMat ? textures.get(texMat.textureId) : undefined;
      const cube = (texture as THREE.CubeTexture | undefined)?.isCubeTexture ? (texture as THREE.CubeTexture) : undefined;
      if (texMat && cube) {
        // MuJoCo looks a cube texture up by object position, scaled by size with texuniform
        const cubeKey = `${key}|cube:${g.materialId}:${g.size.join(':')}`;
        let coords = geometries.get(cubeKey);
        if (!coords) {
          coords = withCubeCoords(geo, g, texMat);
          geometries.set(cubeKey, coords);
          this.disposables.push(coords);
        }
        geo = coords;
      } else if (texMat && !(g.type === 'mesh' && meshes.get(g.meshId)?.texcoordsB64)) {
        // MuJoCo projects the texture over the geom by its material and size: a copy per pair
        const uvKey = `${key}|uv:${g.materialId}:${g.size.join(':')}`;
        let projected = geometries.get(uvKey);
        if (!projected) {
          projected = withProjectedUv(geo, g, texMat);
          geometries.set(uvKey, projected);
          this.disposables.push(projected);
        }
        geo = projected;
      }
      const casts = g.type !== 'plane' && g.rgba[3] > 0.5;
      if (merge && g.type !== 'plane' && g.rgba[3] >= 1 && !textured) {
        // Drawn through its body's batch; this stand-in carries the geom's pose, visibility and
        // id (picking) on a layer no view draws.
        const standIn = new THREE.Mesh(geo, proxyMaterial);
        standIn.name = g.name || `geom${g.id}`;
        standIn.position.set(g.posM[0], g.posM[1], g.posM[2]);
        standIn.quaternion.set(g.quat[1], g.quat[2], g.quat[3], g.quat[0]);
        standIn.layers.set(GEOM_LAYER);
        standIn.castShadow = false;
        standIn.userData.geomId = g.id;
        standIn.userData.batched = true;
        standIn.updateMatrix();
        this.geoms.set(g.id, standIn);
        this.bodies[g.bodyId].add(standIn);
        const shade = batchShadeKey(g, mat);
        // a body welded to the world draws in the world body's batch, posed once from its static pose
        const welded = staticMatrix(g.bodyId);
        const batchBody = welded ? 0 : g.bodyId;
        const batchKey = `${batchBody}|${shade}`;
        let batch = batchInputs.get(batchKey);
        if (!batch) {
          let material = materials.get(`batch:${shade}`);
          if (!material) {
            material = createMaterial({ ...g, rgba: [1, 1, 1, 1] }, mat, undefined);
            (material as THREE.MeshPhongNodeMaterial).vertexColors = true;
            const e = mat?.emission ?? 0;
            // emission is colour times emission: per batch colour (it is in the shade key)
            if (e > 0) (material as THREE.MeshPhongNodeMaterial).emissive = mujocoColor(g.rgba[0] * e, g.rgba[1] * e, g.rgba[2] * e);
            materials.set(`batch:${shade}`, material);
            this.disposables.push(material);
          }
          batch = { bodyId: batchBody, material, members: [] };
          batchInputs.set(batchKey, batch);
        }
        batch.members.push({
          geomId: g.id,
          geometry: geo,
          matrix: welded ? welded.clone().multiply(standIn.matrix) : standIn.matrix.clone(),
          color: mujocoColor(g.rgba[0], g.rgba[1], g.rgba[2]),
          castsShadow: casts,
          isMesh: g.type === 'mesh',
        });
        continue;
      }
      const matKey = `${g.materialId}:${g.rgba.join(',')}`;
      let material = materials.get(matKey);
      if (!material) {
        // one texture object per MuJoCo texture: tiling is in each geometry's uv, not in the map
        material = createMaterial(g, mat, cube ? undefined : texture);
        if (cube) (material as THREE.MeshPhongNodeMaterial).colorNode = cubeColorNode(cube);
        materials.set(matKey, material);
        this.disposables.push(material);
      }
      const mesh = new THREE.Mesh(geo, material);
      mesh.name = g.name || `geom${g.id}`;
      mesh.position.set(g.posM[0], g.posM[1], g.posM[2]);
      mesh.quaternion.set(g.quat[1], g.quat[2], g.quat[3], g.quat[0]);
      mesh.castShadow = casts;
      mesh.receiveShadow = true;
      mesh.userData.geomId = g.id;
      this.geoms.set(g.id, mesh);
      this.bodies[g.bodyId].add(mesh);
      const meshDesc = g.type === 'mesh' ? meshes.get(g.meshId) : undefined;
      if (casts && meshDesc) {
        let proxyGeo = proxyGeometries.get(g.meshId);
        if (!proxyGeo) {
          proxyGeo = createShadowProxyGeometry(meshDesc);
          proxyGeometries.set(g.meshId, proxyGeo);
          this.disposables.push(proxyGeo);
        }
        const proxy = new THREE.Mesh(proxyGeo, proxyMaterial);
        proxy.name = `${mesh.name}:shadow`;
        proxy.layers.set(SHADOW_PROXY_LAYER);
        proxy.castShadow = true;
        proxy.receiveShadow = false;
        mesh.castShadow = false;
        // a child, so it follows the geom's visibility and pose
        mesh.add(proxy);
      }
    }
    const shadowCellM = opts.shadowCellM ?? 0.008 * desc.visual.extentM;
    for (const b of batchInputs.values()) {
      const batch = new GeomBatch(`${this.bodies[b.bodyId].name}:batch${this.batches.length}`, b.members, b.material, proxyMaterial, {
        shadowCellM,
        shadowLayer: SHADOW_PROXY_LAYER,
        meshCellM: opts.meshCellM ?? 0,
      });
      this.batches.push(batch);
      this.disposables.push(batch);
      this.bodies[b.bodyId].add(batch.mesh);
      if (batch.shadowProxy) this.bodies[b.bodyId].add(batch.shadowProxy);
    }
    this.root.traverse((o) => {
      if ((o as THREE.Mesh).isMesh && o.castShadow) this.casters.push(o as THREE.Mesh);
    });
    this.fitShadowsEnabled = opts.fitShadows ?? true;
    this.updateVisibility();

    let ambientR = desc.visual.headlight.active ? desc.visual.headlight.ambient[0] : 0;
    let ambientG = desc.visual.headlight.active ? desc.visual.headlight.ambient[1] : 0;
    let ambientB = desc.visual.headlight.active ? desc.visual.headlight.ambient[2] : 0;
    for (const l of desc.lights) {
      if (!l.active) continue;
      ambientR += l.ambient[0];
      ambientG += l.ambient[1];
      ambientB += l.ambient[2];
      // three's Lambert term divides by π; MuJoCo's does not.
      const color = mujocoColor(l.diffuse[0], l.diffuse[1], l.diffuse[2]);
      let light: THREE.DirectionalLight | THREE.SpotLight | THREE.PointLight;
      if (l.type === 'point') {
        light = new THREE.PointLight(color, Math.PI, 0, 0);
      } else {
        light =
          l.type === 'directional'
            ? new THREE.DirectionalLight(color, Math.PI)
            : new THREE.SpotLight(color, Math.PI, 0, Math.min(Math.PI / 2, (l.cutoffDeg * Math.PI) / 180), spotPenumbra(l.exponent), 0);
        light.target.position.set(l.posM[0] + l.dir[0], l.posM[1] + l.dir[1], l.posM[2] + l.dir[2]);
        this.bodies[l.bodyId].add(light.target);
        if (l.castShadow) {
          this.configureShadow(light, desc, Math.min(maxShadow, desc.visual.shadowSize));
          this.shadowLights.push(light);
        }
      }
      light.name = l.name || `light${l.id}`;
      light.position.set(l.posM[0], l.posM[1], l.posM[2]);
      this.bodies[l.bodyId].add(light);
      this.lights.push(light);
    }
    const ambient = new THREE.AmbientLight(mujocoColor(Math.min(1, ambientR), Math.min(1, ambientG), Math.min(1, ambientB)), Math.PI);
    this.root.add(ambient);
    this.lights.push(ambient);

    const hl = desc.visual.headlight;
    this.headlight = new THREE.DirectionalLight(mujocoColor(hl.diffuse[0], hl.diffuse[1], hl.diffuse[2]), hl.active ? Math.PI : 0);
    this.headlight.name = 'headlight';
    this.headlight.position.set(0, 0, 0);
    this.headlight.target.position.set(0, 0, -1);
    this.lights.push(this.headlight);

    for (const c of desc.cameras) {
      const camera = new THREE.PerspectiveCamera(c.fovyDeg, 1, desc.visual.znearM, desc.visual.zfarM);
      camera.name = c.name || `camera${c.id}`;
      this.root.add(camera);
      this.cameras.push({ name: c.name, id: c.id, camera });
      this.camLocal.push({
        pos: new THREE.Vector3(c.posM[0], c.posM[1], c.posM[2]),
        quat: new THREE.Quaternion(c.quat[1], c.quat[2], c.quat[3], c.quat[0]),
        bodyId: c.bodyId,
        fixed: c.mode === 'fixed',
      });
    }
    const sky = desc.visual.skyboxRgb;
    this.background = sky ? mujocoColor(sky[0], sky[1], sky[2]) : new THREE.Color(0, 0, 0);
  }

  private configureShadow(light: THREE.DirectionalLight | THREE.SpotLight, desc: SceneDescription, size: number): void {
    light.castShadow = true;
    light.shadow.camera.layers.enable(SHADOW_PROXY_LAYER);
    light.shadow.mapSize.set(size, size);
    light.shadow.bias = -0.0005;
    light.shadow.normalBias = 0.01 * desc.visual.extentM;
    const cam = light.shadow.camera;
    const reach = 2 * desc.visual.extentM;
    if (cam instanceof THREE.OrthographicCamera) {
      cam.left = cam.bottom = -reach;
      cam.right = cam.top = reach;
    }
    cam.near = Math.max(0.01, desc.visual.znearM);
    cam.far = desc.visual.zfarM;
    cam.updateProjectionMatrix();
  }

  /** Draw only geoms in these groups (MuJoCo's geomgroup toggles). */
  setVisibleGroups(groups: Iterable<number>): void {
    this.visibleGroups = new Set(groups);
    this.updateVisibility();
  }

  /** Hide or show geoms by any rule, e.g. collision-only geoms: `(g) => g.contype === 0 && g.conaffinity === 0`. */
  setGeomVisibility(visible: (g: SceneGeom) => boolean): void {
    for (const g of this.description.geoms) {
      const mesh = this.geoms.get(g.id);
      if (mesh) mesh.visible = this.visibleGroups.has(g.group) && g.rgba[3] > 0 && visible(g);
    }
    for (const b of this.batches) b.setVisible((id) => this.geoms.get(id)?.visible ?? false);
    this.fitShadows();
  }

  private updateVisibility(): void {
    this.setGeomVisibility(() => true);
  }

  /**
   * Body poses, nbody × 7 (xpos then xquat w x y z) as in src-shared/protocol/poses.ts. Allocates
   * nothing; fixed cameras follow their bodies.
   */
  applyPoses(poses: ArrayLike<number>): void {
    const n = Math.min(this.bodies.length, Math.floor(poses.length / 7));
    for (let b = 0; b < n; b++) {
      const o = 7 * b;
      const group = this.bodies[b];
      group.position.set(poses[o], poses[o + 1], poses[o + 2]);
      group.quaternion.set(poses[o + 4], poses[o + 5], poses[o + 6], poses[o + 3]);
    }
    for (let i = 0; i < this.cameras.length; i++) {
      const local = this.camLocal[i];
      const body = this.bodies[local.bodyId];
      const cam = this.cameras[i].camera;
      cam.position.copy(local.pos).applyQuaternion(body.quaternion).add(body.position);
      cam.quaternion.copy(body.quaternion).multiply(local.quat);
    }
    this.fitShadows();
  }

  /** Fits the shadow cameras to the visible casters where they are now (applyPoses does this). */
  fitShadows(): void {
    if (!this.fitShadowsEnabled || this.shadowLights.length === 0) return;
    this.root.updateMatrixWorld(true);
    casterBounds(this.casters, this.casterBox);
    // a little beyond the casters: normalBias moves lookups outwards and the filter reads neighbours
    const margin = 0.02 * this.description.visual.extentM;
    for (const l of this.shadowLights) fitShadowCamera(l, this.casterBox, margin);
  }

  /**
   * Sets a camera's world pose from MuJoCo's cam_xpos / cam_xmat (row-major 3×3), exact for every
   * camera mode including tracking ones. Allocates nothing.
   */
  setCameraWorldPose(index: number, pos: ArrayLike<number>, posOffset: number, xmat: ArrayLike<number>, matOffset: number): void {
    const cam = this.cameras[index].camera;
    cam.position.set(pos[posOffset], pos[posOffset + 1], pos[posOffset + 2]);
    const x = xmat,
      o = matOffset;
    this.tmpM.set(x[o], x[o + 1], x[o + 2], 0, x[o + 3], x[o + 4], x[o + 5], 0, x[o + 6], x[o + 7], x[o + 8], 0, 0, 0, 0, 1);
    cam.quaternion.setFromRotationMatrix(this.tmpM);
  }

  /** The model camera called `name`; the error lists the model's cameras. */
  camera(name: string): ModelCamera {
    const found = this.cameras.find((c) => c.name === name);
    if (!found) {
      const names = this.cameras.map((c) => c.name).filter(Boolean);
      throw new Error(`model "${this.description.modelName}" has no camera "${name}"; its cameras: ${names.length ? names.join(', ') : '(none)'}`);
    }
    return found;
  }

  /** Points the camera at an image size and moves the headlight onto it (MuJoCo's headlight follows the view). */
  useCamera(camera: THREE.PerspectiveCamera, widthPx: number, heightPx: number): void {
    if (camera.aspect !== widthPx / heightPx) {
      camera.aspect = widthPx / heightPx;
      camera.updateProjectionMatrix();
    }
    if (this.headlight.parent !== camera) {
      camera.add(this.headlight);
      camera.add(this.headlight.target);
    }
  }

  /** A point in MuJoCo's world frame → three's world frame, through the root (same maths as rendering). */
  toThreeWorld(x: number, y: number, z: number, out: THREE.Vector3): THREE.Vector3 {
    this.root.updateMatrixWorld();
    return out.set(x, y, z).applyMatrix4(this.root.matrixWorld);
  }

  /** Pixel (column, row from the top) where a MuJoCo world point lands in a camera's image, or null if behind it. */
  projectToPixel(
    camera: THREE.PerspectiveCamera,
    pointM: readonly [number, number, number],
    widthPx: number,
    heightPx: number,
  ): { x: number; y: number } | null {
    this.useCamera(camera, widthPx, heightPx);
    this.root.updateMatrixWorld(true);
    const p = this.toThreeWorld(pointM[0], pointM[1], pointM[2], this.tmpV);
    p.applyMatrix4(camera.matrixWorldInverse.copy(camera.matrixWorld).invert());
    if (p.z >= 0) return null;
    p.applyMatrix4(camera.projectionMatrix);
    return { x: ((p.x + 1) / 2) * widthPx, y: ((1 - p.y) / 2) * heightPx };
  }

  dispose(): void {
    for (const l of this.lights) l.dispose();
    for (const d of this.disposables) d.dispose();
    this.disposables.length = 0;
    this.root.removeFromParent();
    this.root.clear();
  }
}

export function buildScene(desc: SceneDescription, opts?: BuildOptions): MujocoScene {
  return new MujocoScene(desc, opts);
}
