/**
 * The `sim` benchmark suite: the project's stepping loop (Sim.step with the arm controller
 * running) against a bare mj_step loop on the same model in the same run, chunked stepping, and
 * the load time of each robot (ours under assets/robots and the Menagerie Panda).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { assetsDir } from '../paths';
import { ArmController, arm7Spec } from '../robots/controller';
import { loadPanda, pandaScenePath, type PandaRobot } from '../robots/panda';
import { Sim } from '../sim/sim';
import type { BenchSuite } from './main';

const STEPS = 5000;
const ROUNDS = 5;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rate = (steps: number, ms: number): number => (steps / ms) * 1000;
const fmtRate = (r: number): string => `${Math.round(r).toLocaleString('en-US')} steps/s`;

function timeMs(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

async function timeAsyncMs(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** A rig that steps one model two ways; `prepare` runs before each timed round. */
interface Rig {
  label: string;
  controlled: Sim;
  bare: Sim;
  /** Resets both to `home`; with `moving`, the controller also starts a Cartesian move. */
  prepare(moving: boolean): void;
  dispose(): void;
}

async function arm7Rig(): Promise<Rig> {
  const path = join(assetsDir(), 'robots', 'arm7.xml');
  const controlled = await Sim.load(path);
  const bare = await Sim.load(path);
  const arm = new ArmController(controlled, arm7Spec());
  const targets: Array<[number, number, number]> = [
    [0.45, 0.15, 0.25],
    [0.4, -0.2, 0.35],
  ];
  let k = 0;
  return {
    label: 'assets/robots/arm7.xml with ArmController',
    controlled,
    bare,
    prepare(moving) {
      for (const s of [controlled, bare]) s.resetToKeyframe('home');
      arm.syncFromCtrl();
      if (moving) arm.planMove(targets[k++ % targets.length], 0);
    },
    dispose() {
      arm.dispose();
      controlled.dispose();
      bare.dispose();
    },
  };
}

async function pandaRig(): Promise<Rig> {
  const controlledRobot = await loadPanda();
  const bareRobot = await loadPanda();
  bareRobot.arm.dispose(); // the bare loop runs no controller
  const { sim: controlled, arm } = controlledRobot;
  const bare = bareRobot.sim;
  let k = 0;
  return {
    label: 'Menagerie Panda with ArmController',
    controlled,
    bare,
    prepare(moving) {
      for (const s of [controlled, bare]) s.resetToKeyframe('home');
      arm.syncFromCtrl();
      if (moving) arm.planMove(k++ % 2 ? [0.45, 0.15, 0.3] : [0.35, -0.2, 0.4], 0);
    },
    dispose() {
      controlledRobot.dispose();
      bare.dispose();
    },
  };
}

/**
 * Interleaves bare and controlled rounds so machine noise hits both alike; reports medians.
 * Holding (the controller servoes the home pose, the bare loop keeps the keyframe's ctrl) steps
 * identical physics, so its ratio is the pure cost of the stepping loop and controller; moving
 * adds the arm's motion on the controlled side only.
 */
function compareStepping(rig: Rig, moving: boolean): void {
  const { mj, model, data } = rig.bare;
  const bareRates: number[] = [];
  const simRates: number[] = [];
  // warm-up: JIT and caches
  rig.prepare(moving);
  rig.controlled.step(500);
  for (let i = 0; i < 500; i++) mj.mj_step(model, data);
  for (let r = 0; r < ROUNDS; r++) {
    rig.prepare(moving);
    bareRates.push(rate(STEPS, timeMs(() => {
      for (let i = 0; i < STEPS; i++) mj.mj_step(model, data);
    })));
    simRates.push(rate(STEPS, timeMs(() => rig.controlled.step(STEPS))));
  }
  const bare = median(bareRates);
  const sim = median(simRates);
  const what = moving ? 'arm moving (controlled side only)' : 'arm holding home (identical physics)';
  console.log(`  ${what}: bare mj_step ${fmtRate(bare)}, Sim.step + controller ${fmtRate(sim)}, ratio ${(sim / bare).toFixed(3)}${moving ? '' : ' (target ≥ 0.9)'}`);
}

async function compareChunked(rig: Rig): Promise<void> {
  const rates: number[] = [];
  for (let r = 0; r < 3; r++) {
    rig.prepare(true);
    rates.push(rate(STEPS, await timeAsyncMs(() => rig.controlled.stepChunked(STEPS, { chunkSteps: 100 }))));
  }
  console.log(`  stepChunked (100 per chunk, yields between): ${fmtRate(median(rates))}`);
}

async function loadTimes(): Promise<void> {
  const robotsDir = join(assetsDir(), 'robots');
  let files: string[] = [];
  try {
    files = readdirSync(robotsDir).filter((f) => f.endsWith('.xml')).sort();
  } catch {
    console.log(`load time: no robots in ${robotsDir}`);
  }
  console.log('load time (Sim.load, median of 3):');
  for (const f of files) {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      let sim: Sim | null = null;
      times.push(await timeAsyncMs(async () => (sim = await Sim.load(join(robotsDir, f)))));
      (sim as Sim | null)?.dispose();
    }
    console.log(`  assets/robots/${f}: ${median(times).toFixed(0)} ms`);
  }
  for (const visualMeshes of [true, false]) {
    const times: number[] = [];
    for (let i = 0; i < 2; i++) {
      let robot: PandaRobot | null = null;
      times.push(await timeAsyncMs(async () => (robot = await loadPanda({ visualMeshes }))));
      (robot as PandaRobot | null)?.dispose();
    }
    const what = visualMeshes ? 'with visual meshes' : 'without visual meshes';
    console.log(`  Menagerie Panda ${what} (loadPanda: patch, compile, controller; median of 2): ${median(times).toFixed(0)} ms`);
  }
  console.log(`  (Panda from ${pandaScenePath()})`);
}

export const simSuite: BenchSuite = {
  name: 'sim',
  async run() {
    for (const make of [arm7Rig, pandaRig]) {
      let rig: Rig;
      try {
        rig = await make();
      } catch (e) {
        console.log(`${make.name}: cannot set up (${e instanceof Error ? e.message : String(e)})`);
        continue;
      }
      console.log(`${rig.label}: ${rig.controlled.model.nv} dofs, dt ${rig.controlled.timestepSec * 1000} ms, ${STEPS} steps × ${ROUNDS} rounds, medians`);
      try {
        compareStepping(rig, false);
        compareStepping(rig, true);
        await compareChunked(rig);
      } finally {
        rig.dispose();
      }
    }
    await loadTimes();
  },
};
