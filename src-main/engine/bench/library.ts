/**
 * The `library` benchmark suite: listing a library of N episodes from their summary.json files
 * against rebuilding every summary from the events (what listing cost before summaries: every
 * event of every episode parsed), in the same run. The episodes are copies of the bundled
 * 20-call tool-arm example, the largest of them.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from '../../../src-shared/experiments/stats';
import { EVENTS_FILE, META_FILE, SUMMARY_FILE } from '../episodes/store';
import { bundledEpisodesDir, EpisodeLibrary } from '../studio/library';
import type { BenchSuite } from './suite';

const EPISODES = 200;

function timeMs(fn: () => unknown): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

/** The bundled example with the most events. */
function largestExample(): string {
  const root = bundledEpisodesDir();
  const dirs = readdirSync(root).map((d) => join(root, d));
  return dirs.reduce((a, b) => (statSync(join(b, EVENTS_FILE)).size > statSync(join(a, EVENTS_FILE)).size ? b : a));
}

export const librarySuite: BenchSuite = {
  name: 'library',
  async run() {
    const source = largestExample();
    const root = mkdtempSync(join(tmpdir(), 'rc-bench-library-'));
    const userDir = join(root, 'user');
    const emptyBundled = join(root, 'bundled');
    try {
      const meta = JSON.parse(readFileSync(join(source, META_FILE), 'utf8')) as Record<string, unknown>;
      for (let i = 0; i < EPISODES; i++) {
        const id = `bench-${String(i).padStart(4, '0')}`;
        const dir = join(userDir, id);
        // Events and meta only: images and snapshots are never read by a listing.
        cpSync(join(source, EVENTS_FILE), join(dir, EVENTS_FILE));
        writeFileSync(join(dir, META_FILE), JSON.stringify({ ...meta, id }, null, 2));
      }
      const eventBytes = statSync(join(source, EVENTS_FILE)).size;
      const dropSummaries = () => {
        for (const id of readdirSync(userDir)) rmSync(join(userDir, id, SUMMARY_FILE), { force: true });
      };
      // A fresh library each time: nothing kept in memory between listings, as after a restart.
      const list = () => new EpisodeLibrary(userDir, emptyBundled).list();
      list();
      const rebuilding: number[] = [];
      const fromSummaries: number[] = [];
      for (let r = 0; r < 5; r++) {
        dropSummaries();
        // Rebuilds every summary from the events (and writes it back).
        rebuilding.push(timeMs(list));
        fromSummaries.push(timeMs(list));
      }
      const n = list().length;
      if (n !== EPISODES) throw new Error(`listed ${n} of ${EPISODES} episodes`);
      const rebuild = median(rebuilding);
      const summaries = median(fromSummaries);
      console.log(`  ${EPISODES} episodes of ${(eventBytes / 1024).toFixed(0)} KiB events each (${source.split('/').at(-1)})`);
      console.log(`  listing, rebuilt from the events: ${rebuild.toFixed(1)} ms (${((rebuild * 1000) / EPISODES).toFixed(0)} µs/episode, median of 5)`);
      console.log(`  listing, from summary.json:       ${summaries.toFixed(1)} ms (${((summaries * 1000) / EPISODES).toFixed(0)} µs/episode, median of 5)`);
      console.log(`  ratio summary.json ÷ rebuild: ${(summaries / rebuild).toFixed(3)}× (${(rebuild / summaries).toFixed(1)}× faster)`);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
};
