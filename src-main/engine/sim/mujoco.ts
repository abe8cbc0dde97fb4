/**
 * One MuJoCo WASM module per process. Instantiating it costs ~100 ms and a fresh heap, and every
 * model/data object belongs to the module that made it, so all Sims share this one.
 */
import loadMujoco, { type MainModule } from '@mujoco/mujoco';

export type { MainModule, MjModel, MjData, DoubleBuffer, IntBuffer } from '@mujoco/mujoco';

/** How many lines of MuJoCo's stdout/stderr we keep, so a load error can quote what MuJoCo printed. */
const OUTPUT_LINES_KEPT = 50;
const recentOutput: string[] = [];
let cached: Promise<MainModule> | null = null;

/** MuJoCo's print handler: keeps the line for error reports (exported so tests can feed it). */
export function recordMujocoOutput(line: string): void {
  recentOutput.push(line);
  if (recentOutput.length > OUTPUT_LINES_KEPT) recentOutput.shift();
  // MuJoCo warnings go to stderr: stdout belongs to the CLI (it prints JSON there).
  if (process.env.ROBOCELL_MUJOCO_QUIET !== '1') process.stderr.write(`[mujoco] ${line}\n`);
}

export function getMujoco(): Promise<MainModule> {
  cached ??= loadMujoco({ print: recordMujocoOutput, printErr: recordMujocoOutput });
  return cached;
}

/** Marks the current end of MuJoCo's output; pass the mark to `mujocoOutputSince`. */
export function mujocoOutputMark(): number {
  return recentOutput.length;
}

/** What MuJoCo printed since `mark` (empty when nothing, or when the ring buffer rolled over). */
export function mujocoOutputSince(mark: number): string {
  return recentOutput.slice(Math.min(mark, recentOutput.length)).join('\n').trim();
}

/**
 * The WASM heap's size in bytes. The module does not export HEAPU8, but every array view it hands
 * out is a typed array over the heap's ArrayBuffer, so a throwaway one-element buffer tells us.
 */
export function wasmHeapBytes(mj: MainModule): number {
  const probe = new mj.DoubleBuffer(1);
  try {
    return (probe.GetView() as Float64Array).buffer.byteLength;
  } finally {
    probe.delete();
  }
}
