/**
 * Points of tests/fixtures/render/cube-textured.xml's cube-textured box and cylinder geoms that
 * the camera sees, each with the texel MuJoCo's renderer draws there: its cube texture coordinate
 * (render_gl3.c: the object-space position, times the size with texuniform) looked up in the cube
 * map as GL does (OpenGL 4.6, table 8.19). The headless and the browser tests check the same points.
 */
import type { Sim } from '../../../src-main/engine/sim/sim';
import { firstGeomSeen } from './renderChecks';

type Vec3 = [number, number, number];

interface CubeModel {
  geom_type: ArrayLike<number>;
  geom_size: ArrayLike<number>;
  geom_matid: ArrayLike<number>;
  mat_texid: ArrayLike<number>;
  tex_width: ArrayLike<number>;
  tex_height: ArrayLike<number>;
  tex_nchannel: ArrayLike<number>;
  tex_adr: ArrayLike<number>;
  tex_data: ArrayLike<number>;
  cam_xpos: ArrayLike<number>;
}

export interface CubeProbe {
  what: string;
  /** World point in MuJoCo's frame. */
  at: Vec3;
  /** The texel MuJoCo draws there (0–255). */
  rgb: Vec3;
}

/** The fixture's cube-textured geoms drawn in its tests, and their materials' texuniform. */
export const CUBE_GEOMS: Record<string, { texuniform: boolean }> = {
  faces: { texuniform: false },
  uniform: { texuniform: true },
  checker: { texuniform: false },
};

const MJ_CYLINDER = 5;
const MJ_BOX = 6;
/** mjNTEXROLE and mjTEXROLE_RGB. */
const TEX_ROLES = 10;

/** GL's face and in-face coordinate for a cube map direction: faces +x, −x, +y, −y, +z, −z. */
export function cubeFace([x, y, z]: Vec3): { face: number; s: number; t: number } {
  const ax = Math.abs(x),
    ay = Math.abs(y),
    az = Math.abs(z);
  let face: number, sc: number, tc: number, ma: number;
  if (ax >= ay && ax >= az) [face, sc, tc, ma] = x > 0 ? [0, -z, -y, ax] : [1, z, -y, ax];
  else if (ay >= az) [face, sc, tc, ma] = y > 0 ? [2, x, z, ay] : [3, x, -z, ay];
  else [face, sc, tc, ma] = z > 0 ? [4, x, -y, az] : [5, -x, -y, az];
  return { face, s: (sc / ma + 1) / 2, t: (tc / ma + 1) / 2 };
}

/**
 * The texel of cube texture `tex` at (face, column, row), or null outside the face. Row 0 is the
 * face's t = 0 (GL's first uploaded row); a texture as tall as it is wide repeats on every face.
 */
function texel(m: CubeModel, tex: number, face: number, col: number, row: number): Vec3 | null {
  const w = m.tex_width[tex],
    ch = m.tex_nchannel[tex];
  if (col < 0 || row < 0 || col >= w || row >= w) return null;
  const faceAdr = m.tex_height[tex] === w ? 0 : face * w * w;
  const o = m.tex_adr[tex] + (faceAdr + row * w + col) * ch;
  return [m.tex_data[o], m.tex_data[o + (ch > 1 ? 1 : 0)], m.tex_data[o + (ch > 2 ? 2 : 0)]];
}

/**
 * The texel at a direction, or null where a neighbouring texel differs (a point near a colour
 * edge, which filtering blends) or the point is within a texel and a half of the face's edge.
 */
export function clearTexel(m: CubeModel, tex: number, dir: Vec3): Vec3 | null {
  const { face, s, t } = cubeFace(dir);
  const w = m.tex_width[tex];
  const col = Math.floor(s * w),
    row = Math.floor(t * w);
  const centre = texel(m, tex, face, col, row);
  if (!centre || s * w < 1.5 || t * w < 1.5 || s * w > w - 1.5 || t * w > w - 1.5) return null;
  for (let dr = -1; dr <= 1; dr++) {
    for (let dc = -1; dc <= 1; dc++) {
      const n = texel(m, tex, face, col + dc, row + dr);
      if (!n || n.some((v, k) => v !== centre[k])) return null;
    }
  }
  return centre;
}

/** Points on a geom's surface in its own frame, with their outward normals. */
function surfacePoints(type: number, size: Vec3): Array<{ p: Vec3; n: Vec3 }> {
  const out: Array<{ p: Vec3; n: Vec3 }> = [];
  const steps = Array.from({ length: 17 }, (_, i) => -0.8 + 0.1 * i);
  if (type === MJ_BOX) {
    for (let a = 0; a < 3; a++) {
      for (const sign of [-1, 1]) {
        const [b, c] = [(a + 1) % 3, (a + 2) % 3];
        for (const u of steps) {
          for (const v of steps) {
            const p: Vec3 = [0, 0, 0];
            const n: Vec3 = [0, 0, 0];
            p[a] = sign * size[a];
            p[b] = u * size[b];
            p[c] = v * size[c];
            n[a] = sign;
            out.push({ p, n });
          }
        }
      }
    }
  } else if (type === MJ_CYLINDER) {
    const [r, h] = size;
    for (let deg = 0; deg < 360; deg += 7.5) {
      const c = Math.cos((deg * Math.PI) / 180),
        s = Math.sin((deg * Math.PI) / 180);
      for (const v of steps) out.push({ p: [r * c, r * s, v * h], n: [c, s, 0] });
      for (const rho of [0.3, 0.55, 0.8]) out.push({ p: [rho * r * c, rho * r * s, h], n: [0, 0, 1] });
    }
  }
  return out;
}

/** MuJoCo's cube texture coordinate of a point of a box or a cylinder (a unit shape scaled by its size). */
function cubeCoord(type: number, size: Vec3, p: Vec3, texuniform: boolean): Vec3 {
  const scale: Vec3 = type === MJ_CYLINDER ? [size[0], size[0], size[1]] : size;
  return texuniform ? p : [p[0] / scale[0], p[1] / scale[1], p[2] / scale[2]];
}

/**
 * Up to `perGeom` visible points of each named geom, facing the camera, where the texel is clear
 * of colour edges. `texuniform` per geom name, as the fixture's materials set it (the bool array
 * has no binding in @mujoco/mujoco 3.14).
 */
export function cubeTexturedProbes(sim: Sim, cameraName: string, geoms: Record<string, { texuniform: boolean }>, perGeom = 24): CubeProbe[] {
  const m = sim.model as unknown as CubeModel;
  const d = sim.data as unknown as { geom_xpos: ArrayLike<number>; geom_xmat: ArrayLike<number>; cam_xpos: ArrayLike<number> };
  const cam = sim.requireId('camera', cameraName);
  const eye: Vec3 = [d.cam_xpos[3 * cam], d.cam_xpos[3 * cam + 1], d.cam_xpos[3 * cam + 2]];
  const probes: CubeProbe[] = [];
  for (const [name, { texuniform }] of Object.entries(geoms)) {
    const g = sim.requireId('geom', name);
    const tex = m.mat_texid[m.geom_matid[g] * TEX_ROLES + 1];
    const size: Vec3 = [m.geom_size[3 * g], m.geom_size[3 * g + 1], m.geom_size[3 * g + 2]];
    const pos: Vec3 = [d.geom_xpos[3 * g], d.geom_xpos[3 * g + 1], d.geom_xpos[3 * g + 2]];
    const R = Array.from({ length: 9 }, (_, k) => d.geom_xmat[9 * g + k]);
    const toWorld = (v: Vec3): Vec3 => [0, 1, 2].map((i) => R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2]) as Vec3;
    const found: CubeProbe[] = [];
    for (const { p, n } of surfacePoints(m.geom_type[g], size)) {
      const rgb = clearTexel(m, tex, cubeCoord(m.geom_type[g], size, p, texuniform));
      if (!rgb) continue;
      const w = toWorld(p);
      const at: Vec3 = [pos[0] + w[0], pos[1] + w[1], pos[2] + w[2]];
      const nw = toWorld(n);
      const view = [eye[0] - at[0], eye[1] - at[1], eye[2] - at[2]];
      const facing = (nw[0] * view[0] + nw[1] * view[1] + nw[2] * view[2]) / Math.hypot(...view);
      if (facing < 0.35 || firstGeomSeen(sim, cameraName, at) !== g) continue;
      found.push({ what: `${name} at local ${p.map((x) => x.toFixed(3)).join(', ')}`, at, rgb });
    }
    // spread over what was found, not its first few rows
    const step = Math.max(1, Math.floor(found.length / perGeom));
    probes.push(...found.filter((_, i) => i % step === 0).slice(0, perGeom));
  }
  return probes;
}
