/**
 * The shared scene builder in Chromium: the same SceneDescription the engine renders headlessly
 * draws in the browser through three's WebGL2 fallback, with objects where the simulation puts
 * them (pixel colour at the builder's projection, read from a screenshot of the canvas).
 */
import { join } from 'node:path';
import { build } from 'esbuild';
import { decode } from 'fast-png';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src-main/engine/paths';
import { SimRenderView } from '../../src-main/engine/render/simView';
import { Sim } from '../../src-main/engine/sim/sim';
import { hueDistance, hueSat } from '../integration/helpers/renderChecks';
import { texelAt, texturedProbes } from '../integration/helpers/texturedFixture';
import { CUBE_GEOMS, cubeTexturedProbes } from '../integration/helpers/cubeTexturedFixture';
import { artifactPath, launchChromium } from '../helpers/browser';
import { writeFileSync } from 'node:fs';

const W = 320,
  H = 240;
let browser: Browser | null = null;
let bundle = '';

beforeAll(async () => {
  const out = await build({
    entryPoints: [join(packageRoot(), 'tests', 'e2e', 'fixtures', 'sceneBuilderPage.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'warning',
  });
  bundle = out.outputFiles[0].text;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('scene builder in the browser', () => {
  it("draws the engine's scene description with objects where the simulation says", async () => {
    const sim = await Sim.load(join(packageRoot(), 'tests', 'fixtures', 'render', 'primitives.xml'));
    // SimRenderView is only used here for its description; nothing touches the GPU in Node
    const view = new SimRenderView(sim);
    try {
      sim.forward();
      const bodies = ['red_box', 'blue_ball', 'green_cyl', 'yellow_capsule'];
      const xpos = sim.data.xpos as Float64Array;
      const probes = bodies.map((body) => {
        const id = sim.requireId('body', body);
        return { body, pointM: [xpos[3 * id], xpos[3 * id + 1], xpos[3 * id + 2]] };
      });
      const page = await (browser as Browser).newPage({ viewport: { width: W + 20, height: H + 20 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.setContent(
        `<html><body style="margin:0;background:#fff"><canvas id="c" width="${W}" height="${H}" style="width:${W}px;height:${H}px;display:block"></canvas></body></html>`,
      );
      await page.addScriptTag({ content: bundle });
      const args = { desc: JSON.stringify(view.description), poses: Array.from(sim.bodyPoses()), probes, W, H };
      const result = (await page.evaluate(
        `(async (a) => window.renderScene(document.getElementById('c'), a.desc, a.poses, 'top', a.W, a.H, a.probes))(${JSON.stringify(args)})`,
      )) as { backend: string; probes: Array<{ body: string; x: number; y: number } | null> };
      expect(errors).toEqual([]);
      // headless Chromium here has no WebGPU adapter: this is the WebGL2 fallback the UI uses
      expect(['webgl2', 'webgpu']).toContain(result.backend);
      const shot = await page.locator('#c').screenshot();
      writeFileSync(artifactPath('scene-builder-browser-top.png'), shot);
      const img = decode(shot);
      expect([img.width, img.height]).toEqual([W, H]);
      const ch = img.channels;
      for (const [i, probe] of result.probes.entries()) {
        expect(probe, bodies[i]).not.toBeNull();
        if (!probe) continue;
        const o = ch * (Math.floor(probe.y) * img.width + Math.floor(probe.x));
        const rgb = [img.data[o], img.data[o + 1], img.data[o + 2]];
        const geom = view.description.geoms.find((g) => g.bodyId === sim.id('body', probe.body));
        const expected = hueSat(geom?.rgba ?? [0, 0, 0]);
        const got = hueSat(rgb);
        expect(hueDistance(got.hue, expected.hue), `${probe.body} at ${probe.x.toFixed(0)},${probe.y.toFixed(0)}: rgb ${rgb}`).toBeLessThan(25);
        expect(got.sat, `${probe.body}: rgb ${rgb}`).toBeGreaterThan(0.3);
      }
      await page.close();
    } finally {
      view.dispose();
      sim.dispose();
    }
  });

  it('draws textures as MuJoCo samples them: mesh texcoords, a projected box, a plane with texuniform', async () => {
    const sim = await Sim.load(join(packageRoot(), 'tests', 'fixtures', 'render', 'textured.xml'));
    const view = new SimRenderView(sim);
    try {
      sim.forward();
      const points = texturedProbes();
      const page = await (browser as Browser).newPage({ viewport: { width: W + 20, height: H + 20 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.setContent(
        `<html><body style="margin:0;background:#fff"><canvas id="c" width="${W}" height="${H}" style="width:${W}px;height:${H}px;display:block"></canvas></body></html>`,
      );
      await page.addScriptTag({ content: bundle });
      const probes = points.map((p) => ({ body: p.what, pointM: p.at }));
      const args = { desc: JSON.stringify(view.description), poses: Array.from(sim.bodyPoses()), probes, W, H };
      const result = (await page.evaluate(
        `(async (a) => window.renderScene(document.getElementById('c'), a.desc, a.poses, 'top', a.W, a.H, a.probes))(${JSON.stringify(args)})`,
      )) as { probes: Array<{ body: string; x: number; y: number } | null> };
      expect(errors).toEqual([]);
      const shot = await page.locator('#c').screenshot();
      writeFileSync(artifactPath('scene-builder-browser-textured.png'), shot);
      const img = decode(shot);
      const hues = new Set<number>();
      for (const [i, probe] of result.probes.entries()) {
        expect(probe, points[i].what).not.toBeNull();
        if (!probe) continue;
        const o = img.channels * (Math.floor(probe.y) * img.width + Math.floor(probe.x));
        const rgb = [img.data[o], img.data[o + 1], img.data[o + 2]];
        const want = hueSat(texelAt(sim.model, points[i].uv[0], points[i].uv[1]));
        const got = hueSat(rgb);
        const label = `${points[i].what} at ${points[i].at.join(', ')}: rgb ${rgb}, want hue ${want.hue.toFixed(0)}`;
        expect(hueDistance(got.hue, want.hue), label).toBeLessThan(30);
        expect(got.sat, label).toBeGreaterThan(0.4);
        hues.add(Math.round(want.hue / 60));
      }
      // both of the checker's colours were asked for
      expect(hues.size).toBe(2);
      await page.close();
    } finally {
      view.dispose();
      sim.dispose();
    }
  });
  it('draws cube textures as MuJoCo looks them up: by object position, face by face', async () => {
    const sim = await Sim.load(join(packageRoot(), 'tests', 'fixtures', 'render', 'cube-textured.xml'));
    const view = new SimRenderView(sim);
    try {
      sim.forward();
      const points = cubeTexturedProbes(sim, 'oblique', CUBE_GEOMS);
      const page = await (browser as Browser).newPage({ viewport: { width: W + 20, height: H + 20 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.setContent(
        `<html><body style="margin:0;background:#fff"><canvas id="c" width="${W}" height="${H}" style="width:${W}px;height:${H}px;display:block"></canvas></body></html>`,
      );
      await page.addScriptTag({ content: bundle });
      const probes = points.map((p) => ({ body: p.what, pointM: p.at }));
      const args = { desc: JSON.stringify(view.description), poses: Array.from(sim.bodyPoses()), probes, W, H };
      const result = (await page.evaluate(
        `(async (a) => window.renderScene(document.getElementById('c'), a.desc, a.poses, 'oblique', a.W, a.H, a.probes))(${JSON.stringify(args)})`,
      )) as { probes: Array<{ body: string; x: number; y: number } | null> };
      expect(errors).toEqual([]);
      const shot = await page.locator('#c').screenshot();
      writeFileSync(artifactPath('scene-builder-browser-cube-textured.png'), shot);
      const img = decode(shot);
      const hues = new Set<number>();
      for (const [i, probe] of result.probes.entries()) {
        expect(probe, points[i].what).not.toBeNull();
        if (!probe) continue;
        const o = img.channels * (Math.floor(probe.y) * img.width + Math.floor(probe.x));
        const rgb = [img.data[o], img.data[o + 1], img.data[o + 2]];
        const want = hueSat(points[i].rgb);
        const got = hueSat(rgb);
        const label = `${points[i].what}: rgb ${rgb}, want rgb ${points[i].rgb.join(',')}`;
        expect(hueDistance(got.hue, want.hue), label).toBeLessThan(25);
        expect(got.sat, label).toBeGreaterThan(0.4);
        hues.add(Math.round(want.hue / 60) % 6);
      }
      expect(points.length).toBeGreaterThanOrEqual(24);
      expect(hues.size).toBeGreaterThanOrEqual(5);
      await page.close();
    } finally {
      view.dispose();
      sim.dispose();
    }
  });
});
