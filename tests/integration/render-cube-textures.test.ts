/**
 * Cube textures in headless images: each visible point of a cube-textured box (six distinct faces,
 * each face's quadrants in different hues), a turned box with texuniform and a cylinder shows the
 * texel MuJoCo's renderer looks up there (helpers/cubeTexturedFixture). Before cube textures
 * travelled, these geoms were drawn in their flat material colour.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src-main/engine/paths';
import type { HeadlessRenderer } from '../../src-main/engine/render/headless';
import { SimRenderView } from '../../src-main/engine/render/simView';
import { encodeRgbaAsPng } from '../../src-main/engine/render/png';
import { Sim } from '../../src-main/engine/sim/sim';
import { hueDistance, hueSat, pixelAt, rendererForTests, saveArtifact } from './helpers/renderChecks';
import { CUBE_GEOMS, cubeTexturedProbes } from './helpers/cubeTexturedFixture';

const W = 320,
  H = 240;
const FIXTURE = join(packageRoot(), 'tests', 'fixtures', 'render', 'cube-textured.xml');

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

describe('cube textures in headless images', () => {
  it('shows at each point the texel of the cube face MuJoCo looks up by object position', async (ctx) => {
    if (!renderer) return ctx.skip(why);
    const img = await view.renderRgba('oblique', W, H);
    saveArtifact('cube-textured-oblique.png', encodeRgbaAsPng(img.rgba, W, H));
    const cam = view.scene.camera('oblique').camera;
    const probes = cubeTexturedProbes(sim, 'oblique', CUBE_GEOMS);
    const hues = new Set<number>();
    const perGeom = new Map<string, number>();
    for (const p of probes) {
      const px = view.scene.projectToPixel(cam, p.at, W, H);
      expect(px, p.what).not.toBeNull();
      if (!px) continue;
      const want = hueSat(p.rgb);
      const got = hueSat(pixelAt(img, px.x, px.y));
      const label = `${p.what}: want rgb ${p.rgb.join(',')} (hue ${want.hue.toFixed(0)}), got hue ${got.hue.toFixed(0)} sat ${got.sat.toFixed(2)} at ${px.x.toFixed(0)}, ${px.y.toFixed(0)}`;
      expect(got.sat, label).toBeGreaterThan(0.4);
      expect(hueDistance(got.hue, want.hue), label).toBeLessThan(25);
      hues.add(Math.round(want.hue / 60) % 6);
      const geom = p.what.split(' ')[0];
      perGeom.set(geom, (perGeom.get(geom) ?? 0) + 1);
    }
    // every geom was probed, in most of the fixture's hues (one flat colour cannot pass)
    expect([...perGeom.keys()].sort()).toEqual(Object.keys(CUBE_GEOMS).sort());
    for (const [geom, n] of perGeom) expect(n, geom).toBeGreaterThanOrEqual(8);
    expect(hues.size).toBeGreaterThanOrEqual(5);
  });
});
