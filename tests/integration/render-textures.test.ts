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
import { texelAt, texturedProbes } from './helpers/texturedFixture';

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

describe('textures in headless images', () => {
  it('shows at each point the texel MuJoCo samples there: mesh texcoords, a box, a plane with texuniform', async (ctx) => {
    if (!renderer) return ctx.skip(why);
    const img = await view.renderRgba('top', W, H);
    saveArtifact('textured-top.png', encodeRgbaAsPng(img.rgba, W, H));
    const cam = view.scene.camera('top').camera;
    const points = texturedProbes();
    let red = 0,
      blue = 0;
    for (const p of points) {
      const px = view.scene.projectToPixel(cam, p.at, W, H);
      expect(px, p.what).not.toBeNull();
      if (!px) continue;
      const want = hueSat(texelAt(sim.model, p.uv[0], p.uv[1]));
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
