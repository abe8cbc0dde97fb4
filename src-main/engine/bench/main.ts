/**
 * `npm run bench`: each suite prints its figures and ratios measured in this one run, because
 * machines here are shared and noisy and only same-run ratios compare.
 */
import { agentSuite } from './agent';
import { cellsSuite } from './cells';
import { experimentSuite } from './experiment';
import { inventorySuite } from './inventory';
import { renderSuite } from './render';
import { simSuite } from './sim';
import { solveSuite } from './solve';
import { studioSuite } from './studio';
import { queueSuite } from './queue';
import { printTargetSummary } from './targets';
import { workersSuite } from './workers';

export interface BenchSuite {
  name: string;
  run(): Promise<void>;
}

const suites: BenchSuite[] = [simSuite, solveSuite, renderSuite, agentSuite, inventorySuite, cellsSuite, studioSuite, experimentSuite, workersSuite, queueSuite];

const only = process.argv.slice(2);
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
if (suites.length === 0) console.log('no benchmark suites registered yet');
printTargetSummary();
