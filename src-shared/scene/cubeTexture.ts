/**
 * MuJoCo's cube textures on geoms, as its renderer draws them (render_gl3.c settexture, the "cube
 * or skybox" branch): the texture coordinate is the geom's object-space position, a direction into
 * the cube map (GL_OBJECT_LINEAR texgen on s, t, r), scaled by the geom's size with texuniform;
 * texrepeat plays no part. Object space is the one MuJoCo draws in: primitives are unit shapes
 * scaled by their size (a box's face spans its cube face once), meshes and planes are in metres.
 */
import * as THREE from 'three/webgpu';
import { attribute, cubeTexture, materialColor, vec3, vec4 } from 'three/tsl';
import type { SceneGeom, SceneMaterial, SceneTexture } from './description';
import { base64ToBytes } from './base64';
import { toRgba } from './geometry';

/** The geometry attribute that carries MuJoCo's cube texture coordinate (s, t, r) per vertex. */
export const CUBE_COORD_ATTRIBUTE = 'cubeCoord';

/** mjvGeom.size: spheres are scaled alike on every axis, cylinders and capsules by their radius across. */
function drawnSize(g: SceneGeom): [number, number, number] {
  const [a, b, c] = g.size;
  if (g.type === 'sphere') return [a, a, a];
  if (g.type === 'cylinder' || g.type === 'capsule') return [a, a, b];
  return [a, b, c];
}

/**
 * A point of `g` (geom frame, metres) in MuJoCo's object space. A capsule is an open cylinder
 * scaled by (r, r, half length) and two unit half spheres, each scaled by r about its centre.
 */
function objectCoord(g: SceneGeom, x: number, y: number, z: number, out: [number, number, number]): void {
  const [sx, sy, sz] = drawnSize(g);
  const div = (v: number, s: number) => (s > 0 ? v / s : 0);
  switch (g.type) {
    case 'box':
    case 'ellipsoid':
    case 'sphere':
    case 'cylinder':
      out[0] = div(x, sx);
      out[1] = div(y, sy);
      out[2] = div(z, sz);
      return;
    case 'capsule': {
      out[0] = div(x, sx);
      out[1] = div(y, sy);
      const cap = Math.abs(z) > sz ? Math.sign(z) : 0;
      out[2] = cap === 0 ? div(z, sz) : cap + div(z - cap * sz, sx);
      return;
    }
    default: // meshes and planes are drawn in metres
      out[0] = x;
      out[1] = y;
      out[2] = z;
  }
}

/**
 * A copy of `geo` with MuJoCo's cube texture coordinate per vertex (CUBE_COORD_ATTRIBUTE): the
 * object-space position, times the geom's size where the material has texuniform. Interpolated
 * per pixel as GL interpolates texgen's output, so the cube lookup matches MuJoCo's at every pixel.
 */
export function withCubeCoords(geo: THREE.BufferGeometry, g: SceneGeom, mat: SceneMaterial): THREE.BufferGeometry {
  const out = geo.clone();
  const pos = out.getAttribute('position') as THREE.BufferAttribute;
  const scale = mat.texUniform ? drawnSize(g) : [1, 1, 1];
  const coords = new Float32Array(pos.count * 3);
  const o: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < pos.count; i++) {
    objectCoord(g, pos.getX(i), pos.getY(i), pos.getZ(i), o);
    for (let k = 0; k < 3; k++) coords[3 * i + k] = o[k] * scale[k];
  }
  out.setAttribute(CUBE_COORD_ATTRIBUTE, new THREE.BufferAttribute(coords, 3));
  return out;
}

/**
 * A MuJoCo cube texture as a three CubeTexture. MuJoCo stores six width × width faces in GL's
 * order (+x, −x, +y, −y, +z, −z; height = 6 × width), or one face that every side repeats
 * (height = width, a single image without a grid layout); row 0 is each face's t = 0, as GL and
 * WebGPU both read an upload.
 */
export function createCubeTexture(t: SceneTexture): THREE.CubeTexture {
  const w = t.width;
  const faces = t.height === 6 * w ? 6 : 1;
  if (t.height !== w && faces !== 6) throw new Error(`cube texture "${t.name}": ${w} × ${t.height}, expected ${w} × ${w} or ${w} × ${6 * w}`);
  const src = base64ToBytes(t.dataB64);
  const faceBytes = w * w * t.nchannel;
  if (src.length !== faces * faceBytes) throw new Error(`cube texture "${t.name}": ${src.length} bytes, expected ${faces * faceBytes}`);
  const images: THREE.DataTexture[] = [];
  for (let f = 0; f < faces; f++) {
    const face = new THREE.DataTexture(toRgba(src.subarray(f * faceBytes, (f + 1) * faceBytes), w * w, t.nchannel), w, w);
    face.colorSpace = THREE.SRGBColorSpace;
    images.push(face);
  }
  const tex = new THREE.CubeTexture(faces === 6 ? images : Array.from({ length: 6 }, () => images[0]));
  tex.format = THREE.RGBAFormat;
  tex.type = THREE.UnsignedByteType;
  tex.colorSpace = THREE.SRGBColorSpace;
  // MuJoCo's cube maps: clamped, trilinear (render_context.c makeTexture)
  tex.magFilter = THREE.LinearFilter;
  tex.minFilter = THREE.LinearMipmapLinearFilter;
  tex.generateMipmaps = true;
  tex.needsUpdate = true;
  return tex;
}

/**
 * The diffuse colour of a cube-textured geom: the texel along its cube coordinate times the
 * geom's colour (GL_MODULATE). three reads cube maps with x mirrored (its skybox convention), on
 * WebGPU and WebGL alike: the coordinate's x is mirrored first so the lookup is GL's.
 */
export function cubeColorNode(tex: THREE.CubeTexture): THREE.Node<'vec4'> {
  const coord = attribute(CUBE_COORD_ATTRIBUTE, 'vec3');
  const texel = cubeTexture(tex, vec3(coord.x.negate(), coord.y, coord.z));
  return vec4(texel.rgb.mul(materialColor), 1);
}
