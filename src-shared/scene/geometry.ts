/**
 * three.js geometry and materials for MuJoCo geoms, all in MuJoCo's frame (z up): the rotation
 * to three's y-up happens once, at the builder's root.
 */
import * as THREE from 'three/webgpu';
import type { SceneGeom, SceneMaterial, SceneMesh, SceneTexture } from './description';
import { base64ToBytes, base64ToFloat32, base64ToUint32 } from './base64';

/** MuJoCo's defaults for a geom without a material (mjsMaterial defaults). */
const DEFAULT_SPECULAR = 0.5;
const DEFAULT_SHININESS = 0.5;
/** three lights carry one colour for diffuse and specular; MuJoCo's default light specular (0.3) is
 *  about half its diffuse (0.7), so highlights are scaled to match. */
const SPECULAR_SCALE = 0.5;
/** Corner normals further than this from the face normal are creases: the face normal is used. */
const CREASE_COS = 0.5;

export interface GeometryDetail {
  sphereSegments: number;
  cylinderSegments: number;
}

/** Geometry key so that identical primitives share one buffer. */
export function geometryKey(g: SceneGeom, planeHalfSizeM: number): string {
  if (g.type === 'mesh') return `mesh:${g.meshId}`;
  if (g.type === 'plane') return `plane:${g.size[0] || planeHalfSizeM}:${g.size[1] || planeHalfSizeM}`;
  return `${g.type}:${g.size.join(':')}`;
}

/** Returns null for a geom type this builder cannot draw (height fields). */
export function createPrimitiveGeometry(g: SceneGeom, planeHalfSizeM: number, d: GeometryDetail): THREE.BufferGeometry | null {
  const [a, b, c] = g.size;
  switch (g.type) {
    case 'plane': {
      // MuJoCo's size 0 means infinite; a large finite plane renders the same within the far plane.
      const hx = a > 0 ? a : planeHalfSizeM;
      const hy = b > 0 ? b : planeHalfSizeM;
      return new THREE.PlaneGeometry(2 * hx, 2 * hy); // lies in x-y, normal +z: MuJoCo's plane frame
    }
    case 'sphere':
      return new THREE.SphereGeometry(a, d.sphereSegments, Math.max(8, d.sphereSegments / 2)).rotateX(Math.PI / 2);
    case 'ellipsoid':
      return new THREE.SphereGeometry(1, d.sphereSegments, Math.max(8, d.sphereSegments / 2)).rotateX(Math.PI / 2).scale(a, b, c);
    case 'capsule':
      // three builds along y; MuJoCo's capsule and cylinder axes are z.
      return new THREE.CapsuleGeometry(a, 2 * b, Math.max(4, d.sphereSegments / 4), d.cylinderSegments).rotateX(Math.PI / 2);
    case 'cylinder':
      return new THREE.CylinderGeometry(a, a, 2 * b, d.cylinderSegments).rotateX(Math.PI / 2);
    case 'box':
      return new THREE.BoxGeometry(2 * a, 2 * b, 2 * c);
    default:
      return null;
  }
}

/**
 * Unrolls a MuJoCo mesh to one vertex per face corner so that creases keep MuJoCo's normals, and
 * texture seams their texcoords (each corner takes its face's texcoord, as MuJoCo draws it).
 */
export function createMeshGeometry(mesh: SceneMesh): THREE.BufferGeometry {
  const verts = base64ToFloat32(mesh.verticesB64);
  const faces = base64ToUint32(mesh.facesB64);
  const normals = base64ToFloat32(mesh.normalsB64);
  const faceNormals = mesh.faceNormalsB64 === '' ? faces : base64ToUint32(mesh.faceNormalsB64);
  if (verts.length !== mesh.vertexCount * 3 || faces.length !== mesh.faceCount * 3) {
    throw new Error(`mesh "${mesh.name}": ${verts.length / 3} vertices / ${faces.length / 3} faces, expected ${mesh.vertexCount} / ${mesh.faceCount}`);
  }
  const texcoords = mesh.texcoordsB64 ? base64ToFloat32(mesh.texcoordsB64) : null;
  const faceTexcoords = texcoords && mesh.faceTexcoordsB64 ? base64ToUint32(mesh.faceTexcoordsB64) : faces;
  if (texcoords && faceTexcoords.length !== faces.length) {
    throw new Error(`mesh "${mesh.name}": ${faceTexcoords.length / 3} faces of texcoord indices, expected ${mesh.faceCount}`);
  }
  const nf = mesh.faceCount;
  const pos = new Float32Array(nf * 9);
  const nor = new Float32Array(nf * 9);
  const uv = texcoords ? new Float32Array(nf * 6) : null;
  const hasNormals = faceNormals.length === faces.length && normals.length > 0;
  for (let f = 0; f < nf; f++) {
    const i0 = faces[3 * f] * 3,
      i1 = faces[3 * f + 1] * 3,
      i2 = faces[3 * f + 2] * 3;
    // flat face normal, for creases and for meshes without normals
    const e1x = verts[i1] - verts[i0],
      e1y = verts[i1 + 1] - verts[i0 + 1],
      e1z = verts[i1 + 2] - verts[i0 + 2];
    const e2x = verts[i2] - verts[i0],
      e2y = verts[i2 + 1] - verts[i0 + 1],
      e2z = verts[i2 + 2] - verts[i0 + 2];
    let fx = e1y * e2z - e1z * e2y,
      fy = e1z * e2x - e1x * e2z,
      fz = e1x * e2y - e1y * e2x;
    const fl = Math.hypot(fx, fy, fz) || 1;
    fx /= fl;
    fy /= fl;
    fz /= fl;
    for (let k = 0; k < 3; k++) {
      const vi = faces[3 * f + k] * 3;
      const o = 9 * f + 3 * k;
      pos[o] = verts[vi];
      pos[o + 1] = verts[vi + 1];
      pos[o + 2] = verts[vi + 2];
      let nx = fx,
        ny = fy,
        nz = fz;
      if (hasNormals) {
        const ni = faceNormals[3 * f + k] * 3;
        const mx = normals[ni],
          my = normals[ni + 1],
          mz = normals[ni + 2];
        if (mx * fx + my * fy + mz * fz >= CREASE_COS) {
          nx = mx;
          ny = my;
          nz = mz;
        }
      }
      nor[o] = nx;
      nor[o + 1] = ny;
      nor[o + 2] = nz;
      if (uv && texcoords) {
        const ti = 2 * faceTexcoords[3 * f + k];
        if (ti + 1 >= texcoords.length) throw new Error(`mesh "${mesh.name}": face ${f} uses texcoord ${ti / 2} of ${texcoords.length / 2}`);
        uv[6 * f + 2 * k] = texcoords[ti];
        uv[6 * f + 2 * k + 1] = texcoords[ti + 1];
      }
    }
  }
  const geo = new THREE.BufferGeometry();
  geo.setAttribute('position', new THREE.BufferAttribute(pos, 3));
  geo.setAttribute('normal', new THREE.BufferAttribute(nor, 3));
  if (uv) geo.setAttribute('uv', new THREE.BufferAttribute(uv, 2));
  geo.computeBoundingSphere();
  return geo;
}

/**
 * The size MuJoCo's renderer gives a geom (mjvGeom.size): spheres are scaled alike on every axis,
 * cylinders and capsules by their radius across.
 */
function drawnSize(g: SceneGeom): [number, number] {
  if (g.type === 'sphere' || g.type === 'cylinder' || g.type === 'capsule') return [g.size[0], g.size[0]];
  return [g.size[0], g.size[1]];
}

/**
 * A copy of `geo` with the texture coordinates MuJoCo generates for a 2D texture on a geom without
 * its own (primitives, and meshes without texcoords): projected along the geom's z, in texrepeat
 * tiles across the geom's size, or with texuniform every 2 / texrepeat metres (render_gl3.c's
 * object-linear texgen: s = x·rx/2 − 1/2, t = −y·ry/2 − 1/2 with x, y in sizes or metres).
 */
export function withProjectedUv(geo: THREE.BufferGeometry, g: SceneGeom, mat: SceneMaterial): THREE.BufferGeometry {
  const out = geo.clone();
  const pos = out.getAttribute('position') as THREE.BufferAttribute;
  const [sx, sy] = drawnSize(g);
  const kx = (0.5 * mat.texRepeat[0]) / (mat.texUniform || !(sx > 0) ? 1 : sx);
  const ky = (0.5 * mat.texRepeat[1]) / (mat.texUniform || !(sy > 0) ? 1 : sy);
  const uv = new Float32Array(pos.count * 2);
  for (let i = 0; i < pos.count; i++) {
    uv[2 * i] = kx * pos.getX(i) - 0.5;
    uv[2 * i + 1] = -ky * pos.getY(i) - 0.5;
  }
  out.setAttribute('uv', new THREE.BufferAttribute(uv, 2));
  return out;
}

/** `n` pixels of `nchannel` bytes as RGBA (WebGPU has no 3-channel 8-bit format); grey fills r, g, b. */
export function toRgba(src: Uint8Array, n: number, nchannel: number): Uint8Array {
  const rgba = new Uint8Array(n * 4);
  for (let p = 0; p < n; p++) {
    for (let c = 0; c < 3; c++) rgba[4 * p + c] = src[p * nchannel + Math.min(c, nchannel - 1)];
    rgba[4 * p + 3] = nchannel === 4 ? src[p * 4 + 3] : 255;
  }
  return rgba;
}

/** A 2D MuJoCo texture as an sRGB RGBA DataTexture. */
export function createTexture(t: SceneTexture): THREE.DataTexture {
  const src = base64ToBytes(t.dataB64);
  const n = t.width * t.height;
  if (src.length !== n * t.nchannel) throw new Error(`texture "${t.name}": ${src.length} bytes, expected ${n * t.nchannel}`);
  const tex = new THREE.DataTexture(toRgba(src, n, t.nchannel), t.width, t.height, THREE.RGBAFormat, THREE.UnsignedByteType);
  tex.colorSpace = THREE.SRGBColorSpace;
  tex.wrapS = tex.wrapT = THREE.RepeatWrapping;
  tex.magFilter = THREE.LinearFilter;
  tex.minFilter = THREE.LinearMipmapLinearFilter;
  tex.generateMipmaps = true;
  tex.needsUpdate = true;
  return tex;
}

/**
 * MuJoCo's colours are display values multiplied by light in display space; decoding them (and
 * light colours) from sRGB keeps that product, since the sRGB curve is close to a power law.
 */
export function mujocoColor(r: number, g: number, b: number, out = new THREE.Color()): THREE.Color {
  return out.setRGB(r, g, b, THREE.SRGBColorSpace);
}

/** `texture` is drawn through the geometry's uv attribute as it is (MuJoCo's texcoords or withProjectedUv's). */
export function createMaterial(g: SceneGeom, mat: SceneMaterial | undefined, texture: THREE.Texture | undefined): THREE.MeshPhongNodeMaterial {
  const [r, gr, b, a] = g.rgba;
  const specular = (mat ? mat.specular : DEFAULT_SPECULAR) * SPECULAR_SCALE;
  const shininess = (mat ? mat.shininess : DEFAULT_SHININESS) * 128;
  const emission = mat ? mat.emission : 0;
  const m = new THREE.MeshPhongNodeMaterial({
    color: mujocoColor(r, gr, b),
    specular: mujocoColor(specular, specular, specular),
    shininess,
    emissive: mujocoColor(r * emission, gr * emission, b * emission),
    transparent: a < 1,
    opacity: a,
    depthWrite: a >= 1,
  });
  if (texture && mat) m.map = texture;
  return m;
}

/**
 * Positions only, shared corners merged: what a shadow map needs. MuJoCo splits mesh vertices per
 * corner normal (the Menagerie Panda: 395k vertices, 69k distinct positions), and on a software
 * rasterizer the shadow pass pays for every vertex, so meshes cast shadows through this instead.
 */
export function createShadowProxyGeometry(mesh: SceneMesh): THREE.BufferGeometry {
  const verts = base64ToFloat32(mesh.verticesB64);
  const faces = base64ToUint32(mesh.facesB64);
  const bits = new Uint32Array(verts.buffer, verts.byteOffset, verts.length);
  const n = mesh.vertexCount;
  let size = 1;
  while (size < n * 2) size <<= 1;
  const table = new Int32Array(size).fill(-1);
  const remap = new Uint32Array(n);
  const unique = new Float32Array(n * 3);
  let count = 0;
  for (let v = 0; v < n; v++) {
    const a = bits[3 * v],
      b = bits[3 * v + 1],
      c = bits[3 * v + 2];
    let h = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d)) >>> 0;
    for (;;) {
      const slot = h & (size - 1);
      const u = table[slot];
      if (u < 0) {
        table[slot] = count;
        unique[3 * count] = verts[3 * v];
        unique[3 * count + 1] = verts[3 * v + 1];
        unique[3 * count + 2] = verts[3 * v + 2];
        remap[v] = count++;
        break;
      }
      if (unique[3 * u] === verts[3 * v] && unique[3 * u + 1] === verts[3 * v + 1] && unique[3 * u + 2] === verts[3 * v + 2]) {
        remap[v] = u;
        break;
      }
      h = slot + 1;
    }
  }
  const index = new Uint32Array(faces.length);
  for (let k = 0; k < faces.length; k++) index[k] = remap[faces[k]];
  const geo = new THREE.BufferGeometry();
  geo.setAttribute('position', new THREE.BufferAttribute(unique.slice(0, count * 3), 3));
  geo.setIndex(new THREE.BufferAttribute(index, 1));
  geo.computeBoundingSphere();
  return geo;
}
