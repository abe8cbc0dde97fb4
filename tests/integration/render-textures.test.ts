/**
 * Textures in headless images: each point of a textured surface shows the texel MuJoCo's renderer
 * would sample there, through a mesh's own texcoords and through the coordinates MuJoCo projects
 * onto a box and onto a plane with texuniform (the fixture's 2×2 checker: red and blue quadrants).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src-main/engine/paths';
import type { HeadlessRenderer } from '../../src-main/engine/render/headless';
import { SimRenderView } from '../../src-main/engine/render/simView';
import { encodeRgbaAsPng } from '../../src-main/engine/render/png';
import { Sim } from '../../src-main/engine/sim/sim';
import { hueDistance, hueSat, pixelAt, rendererForTests, saveArtifact } from './helpers/renderChecks';

const W = 320,
  H = 240;
const FIXTURE = join(packageRoot(), 'tests', 'fixtures', 'render', 'textured.xml');

let renderer: HeadlessRenderer | null = null;
let why = '';
let sim: Sim;
let view: SimRenderView;

beforeAll(async () => {
  ({ renderer, why } = await rendererForTests());
  sim = await Sim.load(FIXTURE);
  sim.forward();
  view = new SimRenderView(sim);
});
afterAll(() => {
  view?.dispose();
  sim?.dispose();
});

/** The texel of the fixture's only texture at (u, v), wrapped as a repeating texture is; v = 0 is its first row. */
function texel(u: number, v: number): [number, number, number] {
  const m = sim.model as unknown as { tex_width: Int32Array; tex_height: Int32Array; tex_nchannel: Int32Array; tex_data: Uint8Array };
  const w = m.tex_width[0],
    h = m.tex_height[0],
    ch = m.tex_nchannel[0];
  const frac = (x: number) => x - Math.floor(x);
  const col = Math.floor(frac(u) * w),
    row = Math.floor(frac(v) * h);
  const o = (row * w + col) * ch;
  return [m.tex_data[o], m.tex_data[o + 1], m.tex_data[o + 2]];
}

describe('textures in headless images', () => {
  it('shows at each point the texel MuJoCo samples there: mesh texcoords, a box, a plane with texuniform', async (ctx) => {
    if (!renderer) return ctx.skip(why);
    const img = await view.renderRgba('top', W, H);
    saveArtifact('textured-top.png', encodeRgbaAsPng(img.rgba, W, H));
    const cam = view.scene.camera('top').camera;
    // world point → the (u, v) there, from each geom's pose in the fixture (quadrant centres, off the checker's edges)
    const points: Array<{ what: string; at: [number, number, number]; uv: [number, number] }> = [];
    for (const du of [-0.05, 0.05]) {
      for (const dv of [-0.05, 0.05]) {
        // the slab at x = -0.2, top at z = 0.02: u = (x + 0.1) / 0.2, v = (y + 0.1) / 0.2 in its own frame
        points.push({ what: 'slab (mesh texcoords)', at: [-0.2 + du, dv, 0.02], uv: [(du + 0.1) / 0.2, (dv + 0.1) / 0.2] });
        // the box at x = 0.2, half size 0.1, texrepeat 1: s = x / 0.2 - 1/2, t = -y / 0.2 - 1/2
        points.push({ what: 'box (projected)', at: [0.2 + du, dv, 0.02], uv: [du / 0.2 - 0.5, -dv / 0.2 - 0.5] });
      }
    }
    // the plane at z = -0.01, texrepeat 2 4 with texuniform: s = x - 1/2, t = -2 y - 1/2
    for (const [x, y] of [
      [-0.25, -0.375],
      [0.25, -0.375],
      [-0.25, 0.375],
      [0.25, 0.375],
    ]) {
      points.push({ what: 'ground (projected, texuniform)', at: [x, y, -0.01], uv: [x - 0.5, -2 * y - 0.5] });
    }
    let red = 0,
      blue = 0;
    for (const p of points) {
      const px = view.scene.projectToPixel(cam, p.at, W, H);
      expect(px, p.what).not.toBeNull();
      if (!px) continue;
      const want = hueSat(texel(p.uv[0], p.uv[1]));
      const got = hueSat(pixelAt(img, px.x, px.y));
      const label = `${p.what} at ${p.at.join(', ')} (uv ${p.uv.map((x) => x.toFixed(3)).join(', ')}): want hue ${want.hue.toFixed(0)}, got ${got.hue.toFixed(0)} sat ${got.sat.toFixed(2)} at ${px.x.toFixed(0)}, ${px.y.toFixed(0)}`;
      expect(got.sat, label).toBeGreaterThan(0.4);
      expect(hueDistance(got.hue, want.hue), label).toBeLessThan(30);
      if (want.hue < 30 || want.hue > 330) red++;
      else blue++;
    }
    // both colours were asked for (a surface drawn in one texel's colour cannot pass)
    expect(red).toBeGreaterThan(2);
    expect(blue).toBeGreaterThan(2);
  });
});
