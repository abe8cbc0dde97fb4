/**
 * Many episodes in flight against the rehearsal endpoint: `robocell model-server` in this process
 * answering every call after a fixed latency (3 s by default), an experiment of the robot's task
 * families (the built-in tasks and the RoboTwin tasks filed under them; both arms, the code arm in Python) run by `--jobs J` worker processes with K episodes each,
 * so that J × K are in flight at once. Printed: the total resident memory of the coordinator and its
 * workers (sampled each second from /proc), memory per in-flight episode, throughput against the
 * latency bound, and RSS late in the run against early (flat).
 * The latency bound is the run's wall if every call took exactly the latency and nothing else took
 * time: the episodes, each lasting its calls × the latency, started in run order on N slots (so an
 * episode that spends its whole call budget bounds the run from below). Beside it the CPU the run
 * used (coordinator and model server, workers), per episode, and the CPU bound: that CPU spread
 * over every core of the machine. Whichever bound is larger is what the machine allows.
 * ROBOCELL_BENCH_INFLIGHT (N, default 128), ROBOCELL_BENCH_INFLIGHT_JOBS (J, default 4),
 * ROBOCELL_BENCH_INFLIGHT_WAVES (episodes = N × waves, default 2), ROBOCELL_BENCH_INFLIGHT_LATENCY_MS
 * (default 3000), ROBOCELL_BENCH_INFLIGHT_CAMERAS (default none), ROBOCELL_BENCH_INFLIGHT_LANG (the code
 * arm's language, default python), ROBOCELL_BENCH_INFLIGHT_RSS_LIMIT_GIB (stop past it, default 13).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '../agent/loop';
import { createHeuristicModel } from '../agent/heuristic/heuristicModel';
import { runExperiment } from '../experiments/coordinator';
import { expandSpec, resolveTasks } from '../experiments/expand';
import { keyId } from '../../../src-shared/experiments/spec';
import { prepareExperiment } from '../experiments/setup';
import { startModelServer } from '../modelServer/server';
import type { BenchSuite } from './suite';
import { reportTarget } from './targets';

const envInt = (name: string, d: number) => (process.env[name] ? Number(process.env[name]) : d);
const GiB = 2 ** 30;
const MiB = 2 ** 20;

/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux). */
const CLK_TCK = 100;

/**
 * RSS (bytes) of this process and every descendant, in all and by pid, from /proc; and the CPU seconds (user + system,
 * every thread) of each, by pid, so a caller can keep a worker's last figure after it exits.
 */
export function treeRss(root = process.pid): { total: number; processes: number; cpuSecByPid: Map<number, number>; rssByPid: Map<number, number> } {
  const cpuSecByPid = new Map<number, number>();
  const rssByPid = new Map<number, number>();
  const cpuOf = new Map<number, number>();
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      // Fields after the command: state ppid ... utime (14th field overall) stime (15th).
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(d), Number(f[1]));
      cpuOf.set(Number(d), (Number(f[11]) + Number(f[12])) / CLK_TCK);
    } catch {
      // gone meanwhile
    }
  }
  const inTree = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parent)
      if (!inTree.has(pid) && inTree.has(ppid)) {
        inTree.add(pid);
        grew = true;
      }
  }
  let total = 0;
  for (const pid of inTree) {
    cpuSecByPid.set(pid, cpuOf.get(pid) ?? 0);
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) {
        total += Number(m[1]) * 1024;
        rssByPid.set(pid, Number(m[1]) * 1024);
      }
    } catch {
      // gone meanwhile
    }
  }
  return { total, processes: inTree.size, cpuSecByPid, rssByPid };
}

/** The wall of `durations` run in order on `slots` slots, each starting as soon as a slot is free. */
export function listScheduleSec(durations: readonly number[], slots: number): number {
  const free: number[] = Array.from({ length: Math.max(1, slots) }, () => 0);
  for (const d of durations) {
    let i = 0;
    for (let j = 1; j < free.length; j++) if (free[j] < free[i]) i = j;
    free[i] += d;
  }
  return Math.max(...free);
}

export const inflightSuite: BenchSuite = {
  name: 'inflight',
  async run() {
    const n = envInt('ROBOCELL_BENCH_INFLIGHT', 128);
    const jobs = envInt('ROBOCELL_BENCH_INFLIGHT_JOBS', 4);
    const perJob = Math.ceil(n / jobs);
    const waves = envInt('ROBOCELL_BENCH_INFLIGHT_WAVES', 2);
    const latencyMs = envInt('ROBOCELL_BENCH_INFLIGHT_LATENCY_MS', 3000);
    const language = process.env.ROBOCELL_BENCH_INFLIGHT_LANG === 'javascript' ? 'javascript' : DEFAULT_SETTINGS.language;
    const cameras = (process.env.ROBOCELL_BENCH_INFLIGHT_CAMERAS ?? 'none').split(',').filter((c) => c && c !== 'none');
    process.env.ROBOCELL_MUJOCO_QUIET = '1';
    const server = await startModelServer({ planner: createHeuristicModel(), latency: { kind: 'fixed', ms: latencyMs } });
    const root = mkdtempSync(join(tmpdir(), 'robocell-bench-inflight-'));
    try {
      // The robot's task families, both arms; seeds enough for `waves` rounds of N episodes. The
      // families hold the built-in tasks and the RoboTwin tasks filed under the same families.
      const tasks = ['pick-and-place', 'stacking', 'articulated', 'multi-step'];
      const picked = resolveTasks(tasks);
      const suiteOf = (id: string): string => (id.includes('/') ? id.split('/')[0] : 'built-in');
      const counts = [...new Set(picked.map((t) => suiteOf(t.id)))].map((s) => `${picked.filter((t) => suiteOf(t.id) === s).length} ${s}`);
      const seedsNeeded = Math.ceil((n * waves) / 2 / picked.length);
      const { folder } = prepareExperiment(
        {
          tasks,
          seeds: Array.from({ length: seedsNeeded }, (_, i) => i),
          arms: ['tools', 'code'],
          model: { name: 'gpt-4o', baseUrl: server.baseUrl },
          settings: { ...DEFAULT_SETTINGS, cameras, language },
        },
        join(root, 'exp'),
      );
      const planned = folder.manifest.episodes;
      console.log(
        `  ${planned} episodes (${counts.join(' and ')} tasks of the families ${tasks.join(', ')}; both arms, code arm in ${language}, cameras ${cameras.join(',') || 'none'}), ${jobs} worker processes × ${perJob} episodes = ${jobs * perJob} in flight, every call ${latencyMs} ms at the rehearsal endpoint`,
      );
      let peak = { total: 0, processes: 0 };
      // Each process's CPU seconds as last seen (a worker's figure stays after it exits).
      const cpuSec = new Map<number, number>();
      const sampleCpu = (m: Map<number, number>) => {
        for (const [pid, sec] of m) cpuSec.set(pid, Math.max(sec, cpuSec.get(pid) ?? 0));
      };
      const callsByKey = new Map<string, number>();
      // The episode with the most calls bounds the run from below: its wall beyond calls × latency is its overhead.
      let longest: { calls: number; wallSec: number; setupSec: number; task: string } | null = null as {
        calls: number;
        wallSec: number;
        setupSec: number;
        task: string;
      } | null;
      let early: number | null = null;
      let late: number | null = null;
      let maxRunning = 0;
      const samples: number[] = [];
      const t0 = performance.now();
      let calls = 0;
      let done = 0;
      // A shared machine: past the limit the run is stopped (and the figure says so) rather than starving it.
      const limitBytes = envInt('ROBOCELL_BENCH_INFLIGHT_RSS_LIMIT_GIB', 13) * GiB;
      const stop = new AbortController();
      const sampler = setInterval(() => {
        const s = treeRss();
        sampleCpu(s.cpuSecByPid);
        samples.push(s.total);
        if (s.total > peak.total) peak = s;
        // A line every 30 s, so a run cut short still leaves its figures.
        if (samples.length % 30 === 0)
          console.log(
            `  ${Math.round((performance.now() - t0) / 1000)} s: ${done} done, ${maxRunning} at most running, total RSS ${(s.total / GiB).toFixed(2)} GiB (peak ${(peak.total / GiB).toFixed(2)})`,
          );
        if (s.total > limitBytes && !stop.signal.aborted) {
          console.log(`  total RSS ${(s.total / GiB).toFixed(2)} GiB passed the bench's limit: stopping the run`);
          stop.abort();
        }
      }, 1000);
      const summary = await runExperiment(folder, {
        jobs,
        episodesPerWorker: perJob,
        preflight: false,
        signal: stop.signal,
        workerEnv: { OPENAI_API_KEY: 'rehearsal' },
        onProgress: (p) => (maxRunning = Math.max(maxRunning, p.running)),
        onEpisode: (e) => {
          calls += e.record.totals.llmCalls;
          callsByKey.set(keyId(e.record.key), e.record.totals.llmCalls);
          if (!longest || e.record.totals.llmCalls > longest.calls)
            longest = {
              calls: e.record.totals.llmCalls,
              wallSec: (e.record.totals.wallMs + (e.setupMs ?? 0)) / 1000,
              setupSec: (e.setupMs ?? 0) / 1000,
              task: keyId(e.record.key),
            };
          done = e.done;
          if (early === null && e.done >= Math.ceil(planned / 4)) early = treeRss().total;
          // The last moment every slot is still busy: the queue has just emptied.
          if (late === null && e.done >= planned - jobs * perJob && e.done > Math.ceil(planned / 4)) late = treeRss().total;
        },
      });
      const wallSec = (performance.now() - t0) / 1000;
      clearInterval(sampler);
      sampleCpu(treeRss().cpuSecByPid);
      const ran = summary.progress.ranNow;
      const inFlight = Math.min(jobs * perJob, planned);
      // The latency bound: N slots, each episode's calls taking the latency and nothing else, in run order.
      const meanCalls = calls / Math.max(1, ran);
      const durations = expandSpec(folder.manifest.spec)
        .map((k) => callsByKey.get(keyId(k)))
        .filter((c): c is number => c !== undefined)
        .map((c) => (c * latencyMs) / 1000);
      const boundWallSec = listScheduleSec(durations, inFlight);
      const maxCalls = Math.max(0, ...callsByKey.values());
      const throughputRatio = boundWallSec / wallSec;
      const coordinatorCpuSec = cpuSec.get(process.pid) ?? 0;
      const workersCpuSec = [...cpuSec].filter(([pid]) => pid !== process.pid).reduce((a, [, s]) => a + s, 0);
      const cores = availableParallelism();
      const cpuBoundSec = (coordinatorCpuSec + workersCpuSec) / cores;
      console.log(
        `  ${ran} episodes in ${wallSec.toFixed(1)} s (${summary.end}); ${calls} calls, ${meanCalls.toFixed(1)} per episode; at most ${maxRunning} running at once, ${server.stats.maxInFlight} requests at once at the endpoint`,
      );
      console.log(
        `  latency bound ${boundWallSec.toFixed(1)} s (${ran} episodes in run order on ${inFlight} slots, each its calls × ${latencyMs / 1000} s; the longest ${maxCalls} calls): throughput ${throughputRatio.toFixed(2)}× the bound`,
      );
      if (longest)
        console.log(
          `  the longest episode (${longest.task}, ${longest.calls} calls): ${longest.wallSec.toFixed(1)} s, of which world build ${longest.setupSec.toFixed(1)} s and calls ${((longest.calls * latencyMs) / 1000).toFixed(0)} s; ${(((longest.wallSec - longest.setupSec - (longest.calls * latencyMs) / 1000) / Math.max(1, longest.calls)) * 1000).toFixed(0)} ms more per call (its own turn's work, and waiting for the CPU)`,
        );
      console.log(
        `  CPU ${(coordinatorCpuSec + workersCpuSec).toFixed(1)} core-s (workers ${workersCpuSec.toFixed(1)}, coordinator and model server ${coordinatorCpuSec.toFixed(1)}): ${((coordinatorCpuSec + workersCpuSec) / Math.max(1, ran)).toFixed(2)} core-s per episode; CPU bound ${cpuBoundSec.toFixed(1)} s on ${cores} cores; wall ÷ max(bounds) ${(wallSec / Math.max(boundWallSec, cpuBoundSec)).toFixed(2)}×`,
      );
      console.log(
        `  total RSS peak ${(peak.total / GiB).toFixed(2)} GiB over ${peak.processes} processes (${(peak.total / inFlight / MiB).toFixed(0)} MiB per in-flight episode, processes included); after a quarter of the episodes ${early === null ? '—' : `${(early / GiB).toFixed(2)} GiB`}, when the queue emptied ${late === null ? '—' : `${(late / GiB).toFixed(2)} GiB`}`,
      );
      reportTarget({
        name: `${inFlight} episodes in flight: total RSS`,
        figure: `${(peak.total / GiB).toFixed(2)} GiB peak`,
        ratio: `${(peak.total / inFlight / MiB).toFixed(0)} MiB per in-flight episode`,
        target: '≤ 12 GiB',
        met: peak.total <= 12 * GiB,
      });
      reportTarget({
        name: `${inFlight} episodes in flight: CPU per episode`,
        figure: `${((coordinatorCpuSec + workersCpuSec) / Math.max(1, ran)).toFixed(2)} core-s`,
        ratio: `CPU bound ${cpuBoundSec.toFixed(0)} s ÷ latency bound ${boundWallSec.toFixed(0)} s = ${(cpuBoundSec / Math.max(1e-9, boundWallSec)).toFixed(2)}×`,
        target: 'CPU bound ≤ latency bound (else the machine, not the runner, sets the wall)',
        met: cpuBoundSec <= boundWallSec,
      });
      reportTarget({
        name: `${inFlight} episodes in flight: throughput vs latency bound`,
        figure: `${ran} episodes in ${wallSec.toFixed(0)} s at ${latencyMs} ms per call`,
        ratio: `${throughputRatio.toFixed(2)}×`,
        target: '≥ 0.80×',
        met: throughputRatio >= 0.8,
      });
      // Flat needs a queue that outlasts the first wave (ROBOCELL_BENCH_INFLIGHT_WAVES ≥ 2): with one wave both samples are the same moment.
      if (early !== null && late !== null && planned > jobs * perJob)
        reportTarget({
          name: 'in-flight RSS flat',
          figure: `${(early / GiB).toFixed(2)} → ${(late / GiB).toFixed(2)} GiB`,
          ratio: `${(late / early).toFixed(2)}× (when the queue emptied ÷ a quarter in)`,
          target: '≤ 1.10×',
          met: late / early <= 1.1,
        });
    } finally {
      await server.close();
      rmSync(root, { recursive: true, force: true });
    }
  },
};
