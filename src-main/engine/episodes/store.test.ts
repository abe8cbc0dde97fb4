import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EPISODE_SCHEMA_VERSION } from '../../../src-shared/episode';
import { createToyEnvironment } from '../agent/testing/toyEnvironment';
import { packageRoot } from '../paths';
import { replayEpisode } from '../agent/replay';
import { deserializeSnapshot, serializeSnapshot } from './snapshot';
import { listEpisodes, loadEpisode, rebuildContext } from './store';

const FIXTURE = join(packageRoot(), 'tests', 'fixtures', 'episode-v1-toy');
const tmp = mkdtempSync(join(tmpdir(), 'robocell-store-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function copyFixture(name: string): string {
  const dir = join(tmp, name);
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

describe('episode store: the frozen schemaVersion 1 fixture', () => {
  it('loads, rebuilds the context of every call and replays with equal hashes', async () => {
    const ep = loadEpisode(FIXTURE);
    // Migrated on load: version 1 had no cell language, and every version-1 cell was JavaScript.
    expect(ep.meta.schemaVersion).toBe(EPISODE_SCHEMA_VERSION);
    expect(ep.meta.settings.language).toBe('javascript');
    expect(ep.meta.arm).toBe('tools');
    expect(ep.meta.model.label).toBe('scripted (offline planner)');
    expect(ep.truncatedTail).toBe(false);
    expect(ep.events.map((e) => e.type).filter((t) => t !== 'message')).toEqual(['start', 'tools', 'model/request', 'model/reply', 'action', 'model/request', 'model/reply', 'action', 'model/request', 'model/reply', 'action', 'verdict']);
    const c3 = rebuildContext(ep, 3);
    expect(c3.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(c3.tools.map((t) => t.name)).toEqual(['add', 'read', 'finish']);
    expect(() => rebuildContext(ep, 4)).toThrow(/no model call 4/);
    const verdict = ep.events.at(-1);
    expect(verdict?.type === 'verdict' && verdict.success).toBe(true);
    const report = await replayEpisode(FIXTURE, { toy: async (i) => createToyEnvironment(i) });
    expect(report.matched).toBe(true);
  });

  it('tolerates a truncated last line and keeps everything before it', () => {
    const dir = copyFixture('truncated');
    const file = join(dir, 'events.jsonl');
    const full = readFileSync(file, 'utf8');
    writeFileSync(file, full.slice(0, full.length - 40));
    const ep = loadEpisode(dir);
    expect(ep.truncatedTail).toBe(true);
    expect(ep.events.length).toBe(full.trimEnd().split('\n').length - 1);
  });

  it('refuses a corrupt line in the middle, naming the file and line', () => {
    const dir = copyFixture('corrupt');
    const file = join(dir, 'events.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[3] = '{"type":"action",';
    writeFileSync(file, lines.join('\n'));
    expect(() => loadEpisode(dir)).toThrow(/events\.jsonl line 4: not valid JSON/);
    lines[3] = '{"type":"nonsense","t":1}';
    writeFileSync(file, lines.join('\n'));
    expect(() => loadEpisode(dir)).toThrow(/events\.jsonl line 4: type/);
  });

  it('refuses a newer schemaVersion and a meta.json without one', () => {
    const dir = copyFixture('newer');
    const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'meta.json'), JSON.stringify({ ...meta, schemaVersion: EPISODE_SCHEMA_VERSION + 1 }));
    expect(() => loadEpisode(dir)).toThrow(/newer than this robocell understands/);
    writeFileSync(join(dir, 'meta.json'), JSON.stringify({ ...meta, schemaVersion: undefined }));
    expect(() => loadEpisode(dir)).toThrow(/schemaVersion missing/);
  });

  it('lists episodes and skips unreadable folders', () => {
    const root = join(tmp, 'lib');
    cpSync(FIXTURE, join(root, 'a'), { recursive: true });
    cpSync(FIXTURE, join(root, 'b'), { recursive: true });
    appendFileSync(join(root, 'b', 'meta.json'), 'garbage');
    const list = listEpisodes(root);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ success: true, finish: 'success', llmCalls: 3, actions: 3 });
  });

  it('round-trips a snapshot bit for bit', () => {
    const state = new Float64Array([0.1, -2.5e-300, Number.MIN_VALUE, 1 / 3]);
    const back = deserializeSnapshot(serializeSnapshot({ state, extra: { arm: { target: [1, 2, 3] } } }));
    expect(Array.from(back.state)).toEqual(Array.from(state));
    expect(back.extra).toEqual({ arm: { target: [1, 2, 3] } });
  });
});
