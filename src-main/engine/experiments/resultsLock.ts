/**
 * A lock file beside results.jsonl, so that processes on several machines sharing one experiment
 * folder (queue workers, a coordinator recovering after a crash) check for a key and append its
 * line as one step: each key is recorded once however often its job is delivered. O_EXCL
 * creation is atomic on local file systems and on NFSv3+. A holder killed inside the lock leaves
 * the file behind; it is taken over once older than STALE_MS (the critical section takes ms).
 */
import { closeSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

const LOCK_NAME = '.results.lock';
const STALE_MS = 30_000;
const GIVE_UP_MS = 120_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export class ResultsLockError extends Error {
  override name = 'ResultsLockError';
}

/** Runs `f` holding the folder's results lock; synchronous, like the appends it guards. */
export function withResultsLock<T>(dir: string, f: () => T): T {
  const p = join(dir, LOCK_NAME);
  const started = Date.now();
  const me = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2)}`;
  for (;;) {
    try {
      const fd = openSync(p, 'wx');
      try {
        writeSync(fd, me);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let age = 0;
    try {
      age = Date.now() - statSync(p).mtimeMs;
    } catch {
      continue; // released between our open and stat
    }
    if (age > STALE_MS) {
      // Renamed aside first, so two takers cannot both remove a fresh holder's lock.
      const aside = `${p}.stale-${me.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
      try {
        renameSync(p, aside);
        rmSync(aside, { force: true });
      } catch {
        /* someone else took it over */
      }
      continue;
    }
    if (Date.now() - started > GIVE_UP_MS) {
      let holder = '?';
      try {
        holder = readFileSync(p, 'utf8');
      } catch {
        /* gone */
      }
      throw new ResultsLockError(`${p} has been held for ${Math.round(age / 1000)} s by ${holder}; is the shared folder writable from here?`);
    }
    sleepSync(10 + Math.random() * 20);
  }
  try {
    return f();
  } finally {
    try {
      if (readFileSync(p, 'utf8') === me) rmSync(p, { force: true });
    } catch {
      /* taken over as stale: nothing of ours to remove */
    }
  }
}
