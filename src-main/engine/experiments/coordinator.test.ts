import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXPERIMENT_SCHEMA_VERSION, ExperimentSpec, keyId, type ExperimentManifest } from '../../../src-shared/experiments';
import { packageRoot } from '../paths';
import { runExperiment } from './coordinator';
import type { EpisodeJob, EpisodeJobResult } from './episodeJob';
import { currentVersions } from './expand';
import { ExperimentFolder } from './folder';
import { writeKeyFile } from './record';
import type { EpisodeRunner, RunJobOptions } from './runner';

const FIXTURE = join(packageRoot(), 'tests', 'fixtures', 'episode-v1-toy');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function folder(seeds: number[]): ExperimentFolder {
  const spec = ExperimentSpec.parse({ tasks: ['pp-cube-in-bowl'], seeds, arms: ['tools'], model: { name: 'scripted' }, settings: { images: 'on-demand', feedback: 'pure', cameras: [], imageDetail: 'low', budgets: { maxModelCalls: 40, maxWallMs: 900000, maxSimSteps: 400000 } } });
  const manifest: ExperimentManifest = { schemaVersion: EXPERIMENT_SCHEMA_VERSION, id: 'x', createdAt: new Date().toISOString(), spec, specHash: 'h', versions: currentVersions(), model: { name: 'scripted', label: 'scripted', scripted: true, baseUrl: null }, prices: {}, episodes: seeds.length };
  const d = mkdtempSync(join(tmpdir(), 'rc-coordinator-'));
  dirs.push(d);
  return ExperimentFolder.create(join(d, 'exp'), manifest);
}

interface Handed {
  seed: number;
  lastInQueue: boolean | undefined;
  /** Lines in results.jsonl when the key was handed out. */
  recordedBefore: number;
}

/** Runs each job at once with the frozen toy episode as its outcome; `failFirst` seeds fail on their first attempt. */
function fakeRunner(f: ExperimentFolder, handed: Handed[], failFirst: Set<number>): EpisodeRunner {
  return {
    capacity: 1,
    async run(job: EpisodeJob, o: RunJobOptions): Promise<EpisodeJobResult> {
      handed.push({ seed: job.key.seed, lastInQueue: o.lastInQueue, recordedBefore: f.results().records.length });
      await new Promise((r) => setImmediate(r));
      if (failFirst.delete(job.key.seed)) throw new Error('worker hiccup');
      const dir = join(job.stagingDir, `ep-${job.key.seed}`);
      cpSync(FIXTURE, dir, { recursive: true });
      writeKeyFile(dir, job.key);
      return { episodeDir: dir, stopped: false, success: true, wallMs: 3510, setupMs: 5, rssBytes: 1 };
    },
    close: async () => undefined,
    kill: () => undefined,
  };
}

describe('runExperiment', () => {
  it('hands out the next key before it records the finished one, and tells only a key with nothing queued behind it that it is the last', async () => {
    const f = folder([0, 1, 2]);
    const handed: Handed[] = [];
    const s = await runExperiment(f, { jobs: 1, runner: () => fakeRunner(f, handed, new Set()) });
    expect(s.end).toBe('complete');
    expect(handed).toEqual([
      { seed: 0, lastInQueue: false, recordedBefore: 0 },
      // Key 0's line is appended after key 1 was handed out: its recording overlaps the next episode.
      { seed: 1, lastInQueue: false, recordedBefore: 0 },
      { seed: 2, lastInQueue: true, recordedBefore: 1 },
    ]);
    expect(f.results().records.map((r) => keyId(r.key))).toEqual(['pp-cube-in-bowl/default/s0/r0/tools', 'pp-cube-in-bowl/default/s1/r0/tools', 'pp-cube-in-bowl/default/s2/r0/tools']);
  });

  it('a key retried after a failure is the last again only when nothing else waits', async () => {
    const f = folder([0, 1, 2]);
    const handed: Handed[] = [];
    const s = await runExperiment(f, { jobs: 1, runner: () => fakeRunner(f, handed, new Set([1, 2])) });
    expect(s.end).toBe('complete');
    expect(handed.map((h) => [h.seed, h.lastInQueue])).toEqual([
      [0, false],
      [1, false], // fails
      [1, false], // retried first, seed 2 still queued
      [2, true], // fails as the last
      [2, true], // retried: still nothing behind it
    ]);
    expect(f.results().records).toHaveLength(3);
  });
});
