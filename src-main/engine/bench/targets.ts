/**
 * Issue 18's targets: each suite reports its figure against the target here, and `npm run bench`
 * ends with one table of them, so a reader sees met/missed without searching the log.
 */

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

const results: TargetResult[] = [];

export function reportTarget(r: TargetResult): void {
  results.push(r);
  console.log(`  [target ${r.name}] ${r.figure}; ${r.ratio} (target ${r.target}): ${r.met ? 'met' : 'MISSED'}`);
}

/** A target that could not be measured in this run (missing driver, missing feature). */
export function reportUnmeasured(name: string, target: string, why: string): void {
  results.push({ name, figure: 'not measured', ratio: why, target, met: false });
  console.log(`  [target ${name}] not measured: ${why} (target ${target})`);
}

export function printTargetSummary(): void {
  if (results.length === 0) return;
  console.log('\n## targets (issue 18), all measured in this run');
  console.log('| target | figure | ratio | wanted | status |');
  console.log('|---|---|---|---|---|');
  for (const r of results) console.log(`| ${r.name} | ${r.figure} | ${r.ratio} | ${r.target} | ${r.met ? 'met' : r.figure === 'not measured' ? 'not measured' : 'MISSED'} |`);
}
