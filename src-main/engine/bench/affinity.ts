/**
 * Runs a measurement with every thread of this process on one CPU (Linux, `taskset`), then puts the
 * process's CPU set back.
 *
 * Why: a `robo` call is a hand-off between the isolate's thread and the host's. On the 2-vCPU VMs we
 * bench on (idle vCPUs halt at once: no guest halt polling), that hand-off costs ~15 µs when both
 * threads share a CPU and 20–80 µs when the wake-up crosses vCPUs, and which of the two an isolate
 * gets is the scheduler's placement of its thread, kept for seconds. Measured unpinned on a quiet
 * machine, three back-to-back runs of the same build gave the 3a ratio 1.05×, 4.17× and 3.49×, with
 * per-round quartiles 0.24–5.4×: the placement decided the figure, not the code. On one CPU every
 * hand-off is a context switch, so both arms pay the same hop and the ratio shows what our code adds
 * to it; the denominator is also the smallest, so the ratio is the strictest. The suites print the
 * unpinned figure beside it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The CPUs this process may run on, as the kernel lists them ("0-1"); null off Linux. */
function allowedCpuList(): string | null {
  try {
    const m = /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? m[1] : null;
  } catch {
    return null;
  }
}

function setAffinity(cpuList: string): void {
  // -a: every thread the process has now; threads made later inherit their creator's set.
  execFileSync('taskset', ['-a', '-p', '-c', cpuList, String(process.pid)], { stdio: 'ignore' });
}

export interface PinnedResult<T> {
  value: T;
  /** "CPU 0" when pinned; why not, when it could not be. */
  pinned: string;
  ok: boolean;
}

/** `fn` with the whole process on the first CPU it may use; unpinned (and saying so) where that is impossible. */
export async function onOneCpu<T>(fn: () => Promise<T>): Promise<PinnedResult<T>> {
  const allowed = allowedCpuList();
  const first = allowed?.split(/[,-]/)[0];
  if (!allowed || first === undefined) return { value: await fn(), pinned: 'not pinned (no /proc/self/status CPU list)', ok: false };
  try {
    setAffinity(first);
  } catch (err) {
    return { value: await fn(), pinned: `not pinned (taskset: ${(err as Error).message.split('\n')[0]})`, ok: false };
  }
  try {
    return { value: await fn(), pinned: `CPU ${first} of ${allowed}`, ok: true };
  } finally {
    setAffinity(allowed);
  }
}
