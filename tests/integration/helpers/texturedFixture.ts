/**
 * The points of tests/fixtures/render/textured.xml where its 2×2 checker's quadrants show, with the
 * texture coordinate MuJoCo's renderer samples at each (quadrant centres, clear of the checks' edges):
 * the headless and the browser tests check the same texels.
 */
export interface TexturedProbe {
  what: string;
  /** World point in MuJoCo's frame. */
  at: [number, number, number];
  uv: [number, number];
}

export function texturedProbes(): TexturedProbe[] {
  const points: TexturedProbe[] = [];
  for (const du of [-0.05, 0.05]) {
    for (const dv of [-0.05, 0.05]) {
      // the slab at x = -0.2, top at z = 0.02: u = (x + 0.1) / 0.2, v = (y + 0.1) / 0.2 in its own frame
      points.push({ what: 'slab (mesh texcoords)', at: [-0.2 + du, dv, 0.02], uv: [(du + 0.1) / 0.2, (dv + 0.1) / 0.2] });
      // the box at x = 0.2, half size 0.1, texrepeat 1: s = x / 0.2 - 1/2, t = -y / 0.2 - 1/2
      points.push({ what: 'box (projected)', at: [0.2 + du, dv, 0.02], uv: [du / 0.2 - 0.5, -dv / 0.2 - 0.5] });
    }
  }
  // the plane at z = -0.01, texrepeat 2 4 with texuniform: s = x - 1/2, t = -2 y - 1/2
  for (const x of [-0.25, 0.25]) {
    for (const y of [-0.375, 0.375]) points.push({ what: 'ground (projected, texuniform)', at: [x, y, -0.01], uv: [x - 0.5, -2 * y - 0.5] });
  }
  return points;
}

interface TextureModel {
  tex_width: ArrayLike<number>;
  tex_height: ArrayLike<number>;
  tex_nchannel: ArrayLike<number>;
  tex_data: ArrayLike<number>;
}

/** The texel of the model's first texture at (u, v), wrapped as a repeating texture is; v = 0 is its first row. */
export function texelAt(model: object, u: number, v: number): [number, number, number] {
  const m = model as TextureModel;
  const w = m.tex_width[0],
    h = m.tex_height[0],
    ch = m.tex_nchannel[0];
  const frac = (x: number) => x - Math.floor(x);
  const o = (Math.floor(frac(v) * h) * w + Math.floor(frac(u) * w)) * ch;
  return [m.tex_data[o], m.tex_data[o + 1], m.tex_data[o + 2]];
}
