import { describe, expect, it } from 'vitest';
import { ExperimentSpec } from '../../../src-shared/experiments';
import { DEFAULT_SETTINGS } from '../agent/loop';
import { expandSpec, spreadEvenly } from './expand';
import { bundledSpec } from './studySpec';

const suiteOf = (taskId: string): string => taskId.split('/')[0];

describe('spreadEvenly', () => {
  it('keeps every item once, each list in its order, mixed in proportion', () => {
    const a = Array.from({ length: 4 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 8 }, (_, i) => `b${i}`);
    const out = spreadEvenly([a, b]);
    expect(out).toEqual(['b0', 'a0', 'b1', 'b2', 'a1', 'b3', 'b4', 'a2', 'b5', 'b6', 'a3', 'b7']);
    expect(spreadEvenly([a])).toEqual(a);
    expect(spreadEvenly([[], b])).toEqual(b);
  });
});

describe('expandSpec', () => {
  it('spreads the study suites through the run, with both arms of an instance side by side', () => {
    const spec = ExperimentSpec.parse({ ...bundledSpec('study'), model: { name: 'heuristic' }, settings: DEFAULT_SETTINGS });
    const keys = expandSpec(spec);
    const ids = keys.map((k) => `${k.taskId}|${k.variant}|${k.seed}|${k.repeat}|${k.arm}`);
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 0; i < keys.length; i += 2) {
      expect(keys[i + 1].taskId).toBe(keys[i].taskId);
      expect(keys[i + 1].seed).toBe(keys[i].seed);
      expect([keys[i].arm, keys[i + 1].arm]).toEqual(['tools', 'code']);
    }
    const suites = [...new Set(keys.map((k) => suiteOf(k.taskId)))].sort();
    expect(suites).toEqual(['libero-pro', 'robocasa', 'robotwin']);
    // every tenth of the run holds each suite in about its share of the whole
    const tenth = Math.floor(keys.length / 10);
    for (let part = 0; part < 10; part++) {
      const slice = keys.slice(part * tenth, (part + 1) * tenth);
      for (const s of suites) {
        const share = keys.filter((k) => suiteOf(k.taskId) === s).length / keys.length;
        const here = slice.filter((k) => suiteOf(k.taskId) === s).length / slice.length;
        expect(Math.abs(here - share)).toBeLessThan(0.02);
      }
    }
  });

  it('keeps registry order within one entry', () => {
    const spec = ExperimentSpec.parse({
      name: 'one',
      tasks: ['robotwin/*'],
      variants: ['default'],
      seeds: [0, 1],
      arms: ['tools'],
      model: { name: 'heuristic' },
      settings: DEFAULT_SETTINGS,
    });
    const keys = expandSpec(spec);
    expect(keys.slice(0, 2).map((k) => [k.taskId, k.seed])).toEqual([
      [keys[0].taskId, 0],
      [keys[0].taskId, 1],
    ]);
    expect(keys[2].taskId).not.toBe(keys[0].taskId);
  });
});
