import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EPISODE_SCHEMA_VERSION, EpisodeFormatError, migrateMeta } from '../../../src-shared/episode';
import { loadEpisode } from './store';

// Frozen episodes of older versions (never regenerate them: they stand for folders already on disk).
const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'tests', 'fixtures');
const V1 = join(FIXTURES, 'episode-v1-toy', 'meta.json');
/** A code-arm robot episode recorded at schemaVersion 2 (the bundled JavaScript example of 2026-12-01). */
const V2 = join(FIXTURES, 'episode-v2-code');

describe('episode meta migration', () => {
  it('lifts the frozen version-1 fixture: its cells were JavaScript', () => {
    const raw = JSON.parse(readFileSync(V1, 'utf8')) as Record<string, unknown>;
    expect(raw.schemaVersion).toBe(1);
    expect((raw.settings as Record<string, unknown>).language).toBeUndefined();
    const meta = migrateMeta(raw);
    expect(meta.schemaVersion).toBe(EPISODE_SCHEMA_VERSION);
    expect(meta.settings.language).toBe('javascript');
    expect(meta.settings.budgets.maxModelCalls).toBe(40);
    expect(meta.interface).toBe('tools');
  });

  it('lifts the frozen version-2 fixture: the interface it recorded as arm is its interface', () => {
    const raw = JSON.parse(readFileSync(join(V2, 'meta.json'), 'utf8')) as Record<string, unknown>;
    expect(raw.schemaVersion).toBe(2);
    expect(raw.arm).toBe('code');
    expect(raw.interface).toBeUndefined();
    const meta = migrateMeta(raw);
    expect(meta.schemaVersion).toBe(EPISODE_SCHEMA_VERSION);
    expect(meta.interface).toBe('code');
    expect(meta).not.toHaveProperty('arm');
    expect(meta.settings.language).toBe('javascript');
    expect(meta.instance).toEqual({ taskId: 'st-tower-three', variant: 'default', seed: 0 });
  });

  it('opens the version-2 folder whole: meta migrated, every event and its verdict read', () => {
    const ep = loadEpisode(V2);
    expect(ep.meta.interface).toBe('code');
    expect(ep.events[0].type).toBe('start');
    const verdict = ep.events.find((e) => e.type === 'verdict');
    expect(verdict).toMatchObject({ type: 'verdict', success: true });
    expect(ep.events.filter((e) => e.type === 'action').length).toBeGreaterThan(0);
  });

  it('refuses a version-2 meta whose arm is not an interface', () => {
    const raw = JSON.parse(readFileSync(join(V2, 'meta.json'), 'utf8')) as Record<string, unknown>;
    expect(() => migrateMeta({ ...raw, arm: 'left' })).toThrow(/interface/);
    expect(() => migrateMeta({ ...raw, arm: undefined })).toThrow(EpisodeFormatError);
  });

  it('keeps a version-2 language and refuses an unknown one', () => {
    const raw = JSON.parse(readFileSync(V1, 'utf8')) as Record<string, unknown>;
    const v2 = { ...raw, schemaVersion: 2, settings: { ...(raw.settings as object), language: 'python' } };
    expect(migrateMeta(v2).settings.language).toBe('python');
    const bad = { ...v2, settings: { ...(raw.settings as object), language: 'cobol' } };
    expect(() => migrateMeta(bad)).toThrow(EpisodeFormatError);
    expect(() => migrateMeta(bad)).toThrow(/settings\.language/);
  });
});
