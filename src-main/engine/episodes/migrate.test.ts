import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EPISODE_SCHEMA_VERSION, EpisodeFormatError, migrateMeta } from '../../../src-shared/episode';

// A frozen schemaVersion-1 meta.json (never regenerate it: it stands for folders already on disk).
const V1 = join(import.meta.dirname, '..', '..', '..', 'tests', 'fixtures', 'episode-v1-toy', 'meta.json');

describe('episode meta migration', () => {
  it('lifts the frozen version-1 fixture: its cells were JavaScript', () => {
    const raw = JSON.parse(readFileSync(V1, 'utf8')) as Record<string, unknown>;
    expect(raw.schemaVersion).toBe(1);
    expect((raw.settings as Record<string, unknown>).language).toBeUndefined();
    const meta = migrateMeta(raw);
    expect(meta.schemaVersion).toBe(EPISODE_SCHEMA_VERSION);
    expect(meta.settings.language).toBe('javascript');
    expect(meta.settings.budgets.maxModelCalls).toBe(40);
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
