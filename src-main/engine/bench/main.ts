/**
 * `npm run bench`: each suite prints its figures and ratios measured in this one run, because
 * machines here are shared and noisy and only same-run ratios compare.
 */
import { agentSuite } from './agent';
import { cellsSuite } from './cells';
import { experimentSuite } from './experiment';
import { inventorySuite } from './inventory';
import { librarySuite } from './library';
import { renderSuite } from './render';
import { simSuite } from './sim';
import { solveSuite } from './solve';
import { studioSuite } from './studio';
import { queueSuite } from './queue';
import { exitWhenIdle } from '../cells/exit';
import { printTargetSummary } from './targets';
import type { BenchSuite } from './suite';
import { workersSuite } from './workers';

const suites: BenchSuite[] = [simSuite, solveSuite, renderSuite, agentSuite, inventorySuite, cellsSuite, studioSuite, librarySuite, experimentSuite, workersSuite, queueSuite];

const only = process.argv.slice(2);
// A mistyped suite name would otherwise run nothing and print nothing.
const unknown = only.filter((name) => !suites.some((s) => s.name === name));
if (unknown.length) {
  console.error(`unknown bench suite(s): ${unknown.join(', ')}; the suites are: ${suites.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
for (const suite of suites) {
  if (only.length && !only.includes(suite.name)) continue;
  console.log(`\n## ${suite.name}`);
  try {
    await suite.run();
  } catch (err) {
    // one broken suite must not hide the others' figures
    process.exitCode = 1;
    console.log(`  suite ${suite.name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  }
}
printTargetSummary();
// The cells suite leaves Pyodide isolates behind it: a natural exit can hang in V8's teardown after
// them, an immediate process.exit can crash under their teardown (cells/exit.ts).
await exitWhenIdle(typeof process.exitCode === 'number' ? process.exitCode : 0);
