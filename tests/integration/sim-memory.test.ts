import { describe, expect, it } from 'vitest';
import { getMujoco, wasmHeapBytes } from '../../src-main/engine/sim/mujoco';
import { Sim } from '../../src-main/engine/sim/sim';
import { TEST_MJCF } from './sim-model';

const MiB = 1024 * 1024;

interface Usage {
  heap: number;
  rss: number;
}

async function usage(): Promise<Usage> {
  const mj = await getMujoco();
  return { heap: wasmHeapBytes(mj), rss: process.memoryUsage().rss };
}

const fmt = (u: Usage): string => `heap ${(u.heap / MiB).toFixed(1)} MiB, rss ${(u.rss / MiB).toFixed(1)} MiB`;

/** One life of a Sim touching every path that allocates on the WASM side. */
async function cycle(): Promise<void> {
  const sim = await Sim.loadString(TEST_MJCF);
  sim.resetToKeyframe('home');
  sim.step(100);
  sim.contacts();
  sim.stateHash();
  sim.restore(sim.snapshot());
  sim.jacSite(sim.requireId('site', 'tip'), sim.scratchData());
  sim.bodyPoses();
  sim.dispose();
}

describe('memory', () => {
  it('1,000 cycles of load, step 100, dispose leave the WASM heap and RSS flat', async () => {
    for (let i = 0; i < 100; i++) await cycle();
    const warm = await usage();
    const t0 = performance.now();
    for (let i = 100; i < 1000; i++) await cycle();
    const after = await usage();
    console.log(`after 100 cycles: ${fmt(warm)}; after 1000: ${fmt(after)}; ${((performance.now() - t0) / 900).toFixed(2)} ms per cycle`);
    // One MjData alone is several MiB of arena, so leaking a model/data per cycle would add GiBs.
    expect(after.heap - warm.heap).toBeLessThanOrEqual(4 * MiB);
    expect(after.rss - warm.rss).toBeLessThan(48 * MiB);
  });

  it('20,000 contacts() reads do not grow memory', async () => {
    const sim = await Sim.loadString(TEST_MJCF);
    sim.resetToKeyframe('home');
    sim.step(800); // everything has landed: several contacts per read
    const n = sim.contacts().length;
    expect(n).toBeGreaterThanOrEqual(3);
    // Sim.contacts() keeps its list until the state changes, so each read steps once: every one
    // of the 20,000 goes through the binding's contact vector.
    for (let i = 0; i < 1000; i++) {
      sim.step(1);
      sim.contacts();
    }
    const warm = await usage();
    let seen = 0;
    for (let i = 0; i < 20_000; i++) {
      sim.step(1);
      seen += sim.contacts().length > 0 ? 1 : 0;
    }
    const after = await usage();
    console.log(`contacts: ${n} per read; before ${fmt(warm)}; after 20,000 reads ${fmt(after)}`);
    expect(seen).toBe(20_000);
    // unfreed reads cost ~12 KiB each (240 MiB for 20,000)
    expect(after.heap - warm.heap).toBeLessThanOrEqual(1 * MiB);
    expect(after.rss - warm.rss).toBeLessThan(32 * MiB);
    sim.dispose();
  });
});
