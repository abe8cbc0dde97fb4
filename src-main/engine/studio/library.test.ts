import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { EpisodeLibrary } from './library';

const FIXTURE = join(import.meta.dirname, '..', '..', '..', 'tests', 'fixtures', 'episode-v1-toy');
const fixtureId = JSON.parse(readFileSync(join(FIXTURE, 'meta.json'), 'utf8')).id as string;

describe('episode library', () => {
  let lib: EpisodeLibrary;
  beforeEach(() => {
    const root = mkdtempSync(join(tmpdir(), 'rc-lib-'));
    cpSync(FIXTURE, join(root, 'bundled', fixtureId), { recursive: true });
    lib = new EpisodeLibrary(join(root, 'user'), join(root, 'bundled'));
  });

  it('lists bundled examples as read-only and summarizes them', () => {
    const [e] = lib.list();
    expect(e).toMatchObject({ id: fixtureId, bundled: true, live: false, llmCalls: 3, name: null });
    expect(() => lib.rename(fixtureId, 'x')).toThrow(/read-only/);
    expect(() => lib.delete(fixtureId)).toThrow(/cannot be deleted/);
  });

  it('round-trips an episode through export and import, files included', () => {
    const { json, fileName } = lib.export(fixtureId);
    expect(fileName).toBe(`${fixtureId}.robocell.json`);
    const id = lib.import(json);
    expect(id).toMatch(new RegExp(`^${fixtureId}-import`));
    const a = lib.open(fixtureId);
    const b = lib.open(id);
    expect(b.events).toEqual(a.events);
    expect(b.meta).toEqual({ ...a.meta, id });
    expect(lib.filePath(id, 'snapshots/0001.json')).not.toBeNull();
    lib.rename(id, 'my copy');
    expect(lib.list().find((e) => e.id === id)?.name).toBe('my copy');
    lib.delete(id);
    expect(lib.list().map((e) => e.id)).toEqual([fixtureId]);
  });

  it('refuses a bad import with a clear error and writes nothing', () => {
    const good = JSON.parse(lib.export(fixtureId).json) as Record<string, unknown>;
    expect(() => lib.import('{oops')).toThrow(/invalid JSON/);
    expect(() => lib.import(JSON.stringify({ ...good, format: 'zip' }))).toThrow(/not an episode export: format/);
    expect(() => lib.import(JSON.stringify({ ...good, events: '{"type":"warp"}\n' }))).toThrow(/events line 1/);
    expect(() => lib.import(JSON.stringify({ ...good, files: { '../../evil.sh': 'AA==' } }))).toThrow(/file name not allowed/);
    expect(() => lib.import(JSON.stringify({ ...good, meta: { ...(good.meta as object), schemaVersion: 99 } }))).toThrow(/newer than this robocell/);
    expect(lib.list()).toHaveLength(1);
  });

  it('never resolves ids or files outside the library', () => {
    expect(() => lib.dirOf('../etc')).toThrow(/not an episode id/);
    expect(() => lib.dirOf('nope')).toThrow(/no episode nope/);
    expect(lib.filePath(fixtureId, '../../../etc/passwd')).toBeNull();
    expect(existsSync(lib.userDir)).toBe(true);
  });
});
