/**
 * Issue 18's targets: each suite reports its figure against the target here, and `npm run bench`
 * ends with one table of them, so a reader sees met/missed without searching the log. Each carries
 * the machine's load when it was measured: on a shared machine an absolute figure (the Panda's
 * render time) moves with it, where a same-run ratio mostly does not.
 */
import { cpus, loadavg } from 'node:os';

export interface TargetResult {
  /** Short id, e.g. '1 primitives vs bare mj_step'. */
  name: string;
  /** The measured figure, with its unit. */
  figure: string;
  /** The same-run ratio the target is stated in (or the figure itself when the target is absolute). */
  ratio: string;
  /** The target, as text ('≥ 0.80×', '< 25 ms'). */
  target: string;
  met: boolean;
}

const results: Array<TargetResult & { load: string }> = [];
/** The 1-minute load average over the core count, e.g. "5.2 on 2 cores". */
const loadNow = (): string => `${loadavg()[0].toFixed(1)} on ${cpus().length} cores`;

export function reportTarget(r: TargetResult): void {
  const load = loadNow();
  results.push({ ...r, load });
  console.log(`  [target ${r.name}] ${r.figure}; ${r.ratio} (target ${r.target}): ${r.met ? 'met' : 'MISSED'} (load ${load})`);
}

/** A target that could not be measured in this run (missing driver, missing feature). */
export function reportUnmeasured(name: string, target: string, why: string): void {
  results.push({ name, figure: 'not measured', ratio: why, target, met: false, load: loadNow() });
  console.log(`  [target ${name}] not measured: ${why} (target ${target})`);
}

export function printTargetSummary(): void {
  if (results.length === 0) return;
  console.log('\n## targets (issue 18), all measured in this run');
  console.log('| target | figure | ratio | wanted | status | load (1 min) |');
  console.log('|---|---|---|---|---|---|');
  for (const r of results) console.log(`| ${r.name} | ${r.figure} | ${r.ratio} | ${r.target} | ${r.met ? 'met' : r.figure === 'not measured' ? 'not measured' : 'MISSED'} | ${r.load} |`);
}
