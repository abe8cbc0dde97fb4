/**
 * The `render` benchmark suite: the headless renderer's start-up, ms per image at 320×240 and
 * 640×480 (pixels only, and with PNG encoding) on a built-in task and on the Menagerie Panda,
 * both Dawn backends where available, and the process's peak memory.
 */
import { spawnSync } from 'node:child_process';
import { HeadlessRenderer } from '../render/headless';
import { encodeRgbaAsPng } from '../render/png';
import { SimRenderView } from '../render/simView';
import { pandaScenePath } from '../robots/panda';
import { Sim } from '../sim/sim';
import { createEpisodeWorld } from '../tasks/episode';
import type { BenchSuite } from './main';

const WARMUP = 5;
const FRAMES = 30;
const TARGET_MS_320 = 25;
const SIZES: Array<[number, number]> = [[320, 240], [640, 480]];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

let peakRss = 0;
const sampleRss = (): void => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
};

interface FrameTimes { rgbaMs: number[]; pngMs: number[] }

/** Renders `camera` FRAMES times, stepping the sim between frames so every image has a new state. */
async function timeFrames(sim: Sim, view: SimRenderView, camera: string, w: number, h: number): Promise<FrameTimes> {
  const rgbaMs: number[] = [];
  const pngMs: number[] = [];
  for (let i = 0; i < WARMUP + FRAMES; i++) {
    sim.step(10);
    const t0 = performance.now();
    const img = await view.renderRgba(camera, w, h);
    const t1 = performance.now();
    encodeRgbaAsPng(img.rgba, w, h);
    const t2 = performance.now();
    sampleRss();
    if (i >= WARMUP) {
      rgbaMs.push(t1 - t0);
      pngMs.push(t2 - t0);
    }
  }
  return { rgbaMs, pngMs };
}

async function benchScene(label: string, sim: Sim, camera: string, renderer: HeadlessRenderer): Promise<Map<string, number>> {
  const view = new SimRenderView(sim, { renderer: () => Promise.resolve(renderer) });
  const medians = new Map<string, number>();
  try {
    const t0 = performance.now();
    await view.renderRgba(camera, 320, 240);
    console.log(`  ${label}: first image (pipelines compiled) ${(performance.now() - t0).toFixed(0)} ms`);
    for (const [w, h] of SIZES) {
      const t = await timeFrames(sim, view, camera, w, h);
      const m = median(t.rgbaMs);
      medians.set(`${w}x${h}`, m);
      console.log(
        `  ${label} ${camera} ${w}×${h}: ${m.toFixed(1)} ms/image (p90 ${p90(t.rgbaMs).toFixed(1)}), ` +
          `with PNG ${median(t.pngMs).toFixed(1)} ms` + (w === 320 ? `  [target < ${TARGET_MS_320} ms: ${m < TARGET_MS_320 ? 'met' : 'MISSED'}]` : ''),
      );
    }
    console.log(`  ${label}: 640×480 / 320×240 = ${((medians.get('640x480') ?? 0) / (medians.get('320x240') ?? 1)).toFixed(2)}×`);
  } finally {
    view.dispose();
  }
  return medians;
}

/** Set in the child process that measures the GLES backend alone. */
const CHILD_ENV = 'ROBOCELL_BENCH_RENDER_CHILD';

async function runChild(): Promise<void> {
  const renderer = await HeadlessRenderer.create();
  console.log(`  start-up: ${renderer.initMs.toFixed(0)} ms on ${renderer.backend} (${renderer.adapterName})`);
  const ep = await createEpisodeWorld({ taskId: 'pp-cube-in-bowl', variant: 'default', seed: 0 });
  try {
    const m = await benchScene('task pp-cube-in-bowl', ep.sim, 'front', renderer);
    console.log(JSON.stringify({ ms320: m.get('320x240') }));
  } finally {
    ep.dispose();
    renderer.dispose();
  }
}

export const renderSuite: BenchSuite = {
  name: 'render',
  async run() {
    if (process.env[CHILD_ENV] === '1') return runChild();
    sampleRss();
    const rssBefore = process.memoryUsage().rss;
    const t0 = performance.now();
    const renderer = await HeadlessRenderer.create();
    sampleRss();
    console.log(`  start-up (adapter, device, three init): ${renderer.initMs.toFixed(0)} ms on ${renderer.backend} (${renderer.adapterName})`);
    console.log(`  rss before the GPU: ${mib(rssBefore)}, after start-up: ${mib(process.memoryUsage().rss)} (${(performance.now() - t0).toFixed(0)} ms wall)`);

    const ep = await createEpisodeWorld({ taskId: 'pp-cube-in-bowl', variant: 'default', seed: 0 });
    let taskMedians: Map<string, number>;
    try {
      taskMedians = await benchScene('task pp-cube-in-bowl', ep.sim, 'front', renderer);
      await benchScene('task pp-cube-in-bowl', ep.sim, 'wrist', renderer);
    } finally {
      ep.dispose();
    }

    const panda = await Sim.load(pandaScenePath(), {
      patchXml: (xml, rel) => (rel.endsWith('scene.xml') ? xml.replace('<worldbody>', '<worldbody><camera name="front" pos="2.0 0 1.0" xyaxes="0 1 0 -0.35 0 0.94" fovy="45"/>') : xml),
    });
    try {
      panda.resetToKeyframe('home');
      const pm = await benchScene('Menagerie Panda (56 meshes)', panda, 'front', renderer);
      console.log(`  Panda / task at 320×240 = ${((pm.get('320x240') ?? 0) / (taskMedians.get('320x240') ?? 1)).toFixed(2)}×`);
    } finally {
      panda.dispose();
    }
    renderer.dispose();

    // The GLES fallback on the same scene: what a machine with only stock Mesa gets. A child
    // process, because Dawn allows one GPU device per process.
    if (process.platform === 'linux') {
      const child = spawnSync(process.execPath, [process.argv[1], 'render'], {
        env: { ...process.env, ROBOCELL_GPU_BACKEND: 'opengles', [CHILD_ENV]: '1' },
        encoding: 'utf8',
        timeout: 300_000,
      });
      const lines = (child.stdout ?? '').split('\n');
      for (const line of lines) if (line.startsWith('  ')) console.log(`  [GLES] ${line.trim()}`);
      const result = lines.find((l) => l.startsWith('{'));
      if (child.status === 0 && result) {
        const gles = JSON.parse(result) as { ms320: number };
        console.log(`  GLES / Vulkan at 320×240 = ${(gles.ms320 / (taskMedians.get('320x240') ?? 1)).toFixed(2)}×`);
      } else {
        console.log(`  GLES backend run failed (exit ${child.status}): ${(child.stderr ?? '').split('\n').filter((l) => l && !l.includes('artificially')).slice(-3).join(' | ')}`);
      }
    }
    sampleRss();
    console.log(`  peak rss (sampled): ${mib(peakRss)}; process max rss: ${mib(process.resourceUsage().maxRSS * 1024)}`);
  },
};
