/**
 * The `solve` benchmark suite: wall time of one reference episode per task (default variant,
 * seeds 0 and 1), with the sim steps it took and the resulting steps per second of the whole
 * stack (IK planning, controller, primitives, judge).
 */
import { createEpisodeWorld, runSolution } from '../tasks/episode';
import { TASKS } from '../tasks/registry';
import type { BenchSuite } from './main';

const SEEDS = [0, 1];

export const solveSuite: BenchSuite = {
  name: 'solve',
  async run() {
    process.env.ROBOCELL_MUJOCO_QUIET ??= '1';
    console.log('| task | solved | mean wall ms | mean sim steps | sim steps/s | mean load ms |');
    console.log('|---|---|---|---|---|---|');
    let totalMs = 0;
    let totalSteps = 0;
    for (const t of TASKS) {
      let wall = 0;
      let steps = 0;
      let load = 0;
      let ok = 0;
      for (const seed of SEEDS) {
        const t0 = performance.now();
        const ep = await createEpisodeWorld({ taskId: t.id, variant: t.variants[0].id, seed });
        load += performance.now() - t0;
        const run = await runSolution(ep);
        ep.dispose();
        wall += run.wallMs;
        steps += run.simSteps;
        if (run.verdict.success) ok++;
      }
      totalMs += wall;
      totalSteps += steps;
      const n = SEEDS.length;
      console.log(`| ${t.id} | ${ok}/${n} | ${Math.round(wall / n)} | ${Math.round(steps / n)} | ${Math.round((steps / wall) * 1000)} | ${Math.round(load / n)} |`);
    }
    console.log(`\nall tasks: ${(totalMs / 1000).toFixed(1)} s wall for ${totalSteps} sim steps (${Math.round((totalSteps / totalMs) * 1000)} steps/s through the primitives)`);
  },
};
