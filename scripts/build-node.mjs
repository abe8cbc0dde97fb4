// Builds the Node entries (the engine/CLI and the benchmarks) with esbuild. Dependencies stay
// external so native addons (isolated-vm, webgpu) and WASM (@mujoco/mujoco) load from node_modules.
import { build } from 'esbuild';

const started = Date.now();
await build({
  entryPoints: {
    cli: 'src-main/engine/cli/main.ts',
    bench: 'src-main/engine/bench/main.ts',
    // the workers benchmark's episode worker, alone so its memory is a worker's
    'bench-worker': 'src-main/engine/bench/workerChild.ts',
    // the experiment runner's worker process, alone so it starts without the CLI's other commands
    'experiment-worker': 'src-main/engine/experiments/workerEntry.ts',
  },
  outdir: 'out/node',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  // Dynamic imports become chunks loaded on first use: the queue's libraries (BullMQ, express,
  // ~0.6 s to load) only for the commands that need them.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: true,
  logLevel: 'warning',
});
console.log(`built out/node in ${Date.now() - started} ms`);
