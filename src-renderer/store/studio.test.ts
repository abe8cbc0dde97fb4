import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { migrateMeta, parseEventLines } from '../../src-shared/episode';
import { buildEpisodeView } from '../episode/view';
import { useStudio } from './studio';

const dir = join(import.meta.dirname, '..', '..', 'tests', 'fixtures', 'episode-v1-toy');
const meta = migrateMeta(JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')));
const { events } = parseEventLines(readFileSync(join(dir, 'events.jsonl'), 'utf8'));
const other = { ...meta, id: `${meta.id}-other` };
const frame = () => new Promise((r) => setTimeout(r, 50));

describe('studio store: a live episode’s events, applied once a frame', () => {
  beforeEach(() => useStudio.getState().closeEpisode());

  it('queues events as they arrive and applies them together on the next frame, following the newest call', async () => {
    useStudio.getState().openEpisode(meta, [], true);
    const renders: number[] = [];
    const off = useStudio.subscribe((s) => renders.push(s.episode?.events.length ?? -1));
    for (const e of events) useStudio.getState().appendEvents(meta.id, [e]);
    // Nothing re-rendered per event.
    expect(renders).toEqual([]);
    expect(useStudio.getState().episode?.events).toHaveLength(0);
    await frame();
    off();
    expect(renders).toEqual([events.length]);
    const s = useStudio.getState();
    expect(s.episode?.events).toEqual(events);
    expect(s.episode?.view).toEqual(buildEpisodeView(meta, events));
    expect(s.selectedCall).toBe(s.episode!.view.calls.length - 1);
  });

  it('drops queued events when another episode opens or the episode closes, and ignores an episode not open', async () => {
    useStudio.getState().openEpisode(meta, [], true);
    useStudio.getState().appendEvents(meta.id, events.slice(0, 3));
    useStudio.getState().openEpisode(other, [], true);
    useStudio.getState().appendEvents(meta.id, events.slice(3));
    await frame();
    expect(useStudio.getState().episode?.meta.id).toBe(other.id);
    expect(useStudio.getState().episode?.events).toHaveLength(0);

    useStudio.getState().appendEvents(other.id, events.slice(0, 3));
    useStudio.getState().closeEpisode();
    await frame();
    expect(useStudio.getState().episode).toBeNull();
  });

  it('applies the queue first when the user selects a call or the run ends', () => {
    useStudio.getState().openEpisode(meta, [], true);
    useStudio.getState().appendEvents(meta.id, events);
    useStudio.getState().selectCall(0);
    expect(useStudio.getState().episode?.events).toHaveLength(events.length);
    expect(useStudio.getState()).toMatchObject({ selectedCall: 0, follow: false });

    useStudio.getState().openEpisode(meta, events.slice(0, 4), true);
    useStudio.getState().appendEvents(meta.id, events.slice(4));
    useStudio.getState().setLive(meta.id, false);
    expect(useStudio.getState().episode).toMatchObject({ live: false, events });
  });
});
