/**
 * How an engine process ends when it may hold cell isolates (isolated-vm; Pyodide in the Python
 * ones). Every entry point (the CLI, the experiment worker, the bench workers) exits through here.
 *
 * Why not plain `process.exit(code)`: disposing an isolate only starts its teardown, which often
 * runs later on one of isolated-vm's threads (whichever drops the last reference, e.g. the one
 * releasing its References), taking a few ms for a Pyodide heap. `process.exit` disposes Node's
 * platform and runs static destructors under that teardown: SIGSEGV in
 * `IsolateEnvironment::~IsolateEnvironment` / `PlatformDelegate::UnregisterIsolate` (core dumps of
 * `robocell replay`, about one exit in three), or a hang joining isolated-vm's threads. Why not a
 * natural exit either: Node's own teardown then waits in V8's `WasmEngine` destructor and never
 * returns after Pyodide ran (seen on Node 20 with isolated-vm 5.0.4).
 *
 * So: dispose what is ours, then exit from `beforeExit`, which Node emits only once the event loop
 * is empty. isolated-vm keeps its uv handle referenced from the moment it hands an isolate work
 * (a call, a boot, a teardown) until that work and the release of its last reference are done, so
 * an empty loop means no isolate is in flight, and `process.exit` there skips the teardown that hangs.
 */
import { closePythonPools } from './python/pool';
import { disposeAllSandboxes } from './python/sandbox';
import { killSnapshotChildren } from './python/snapshot';

/** How long the loop may stay busy after shutdown before the process exits regardless. */
export const STRAY_HANDLE_GRACE_MS = 2_000;

/**
 * Ends every Python sandbox (pooled, warming up, bound to a runtime), then stops the pools for good.
 * A snapshot being made in a child process is ended first: waiting would hold the exit for seconds,
 * and the next process makes it again (nothing half-made reaches the cache).
 */
export async function disposeCellIsolates(): Promise<void> {
  killSnapshotChildren();
  await closePythonPools();
  await disposeAllSandboxes();
}

/**
 * Disposes the process's cell isolates, then exits with `code` once nothing is left in flight.
 * Something else keeping the loop alive (a socket a stuck client holds, a timer someone forgot)
 * must not keep a finished command running: after `graceMs` the process exits anyway, with the
 * same code, and says on stderr what was still open.
 */
export async function exitWhenIdle(code: number, graceMs = STRAY_HANDLE_GRACE_MS): Promise<never> {
  try {
    await disposeCellIsolates();
  } catch (err) {
    process.stderr.write(`robocell: could not dispose the cell sandboxes before exiting: ${err instanceof Error ? err.message : String(err)}\n`);
  }
  return new Promise<never>(() => {
    process.once('beforeExit', () => process.exit(code));
    // unref: this timer must not be what keeps the loop from emptying.
    setTimeout(() => {
      const open = process.getActiveResourcesInfo();
      process.stderr.write(`robocell: exiting with work still open after ${graceMs} ms (${open.join(', ') || 'none visible to Node'})\n`);
      process.exit(code);
    }, graceMs).unref();
  });
}
