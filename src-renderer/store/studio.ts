import { create } from 'zustand';
import type { EpisodeEvent, EpisodeMeta } from '../../src-shared/episode';
import { EpisodeViewBuilder, type EpisodeView } from '../episode/view';

export interface OpenEpisode {
  meta: EpisodeMeta;
  events: EpisodeEvent[];
  view: EpisodeView;
  /** True while the engine is still running it (events keep arriving). */
  live: boolean;
}

interface StudioState {
  /** The episode the panels show (the left one in the duel view). */
  episode: OpenEpisode | null;
  /** Index into episode.view.calls; -1 = before the first call. */
  selectedCall: number;
  /** Follow the newest call while a live episode runs. */
  follow: boolean;
  openEpisode(meta: EpisodeMeta, events: EpisodeEvent[], live: boolean): void;
  /** Queues a live episode's events; the view is rebuilt once per frame (see flushEvents). */
  appendEvents(episodeId: string, events: EpisodeEvent[]): void;
  /** Applies the queued events now (the frame callback, or a user action that needs the newest view). */
  flushEvents(): void;
  setLive(episodeId: string, live: boolean): void;
  selectCall(index: number): void;
  step(delta: number): void;
  closeEpisode(): void;
}

/**
 * A live run sends several events per model call, and every set() re-renders the panels and rebuilds
 * the view over all events so far: per event, a 200-call run brought the page to about one frame a
 * second on a loaded machine and a click on the timeline could not get through (e2e studio-long).
 * Events are queued as they arrive and applied once a frame, so the work follows the frame rate.
 */
let queued: { episodeId: string; events: EpisodeEvent[] } | null = null;
let frame: number | null = null;
// Typed without the DOM library: the store's unit test compiles and runs under Node, where a timer stands in.
const frames = globalThis as { requestAnimationFrame?: (fn: () => void) => number; cancelAnimationFrame?: (id: number) => void };
const nextFrame = (fn: () => void): number => (frames.requestAnimationFrame ? frames.requestAnimationFrame(fn) : (setTimeout(fn, 16) as unknown as number));
const cancelFrame = (id: number): void => (frames.cancelAnimationFrame ? frames.cancelAnimationFrame(id) : clearTimeout(id));

/** The open episode's view, folded as its events arrive (a flush re-derives only what they touched). */
let builder: EpisodeViewBuilder | null = null;

/** Queued events belong to the episode open when they arrived: opening or closing one drops them. */
function dropQueued(): void {
  queued = null;
  if (frame !== null) cancelFrame(frame);
  frame = null;
}

export const useStudio = create<StudioState>((set, get) => ({
  episode: null,
  selectedCall: -1,
  follow: true,
  openEpisode(meta, events, live) {
    dropQueued();
    builder = new EpisodeViewBuilder(meta).add(events);
    const view = builder.view();
    set({ episode: { meta, events, view, live }, selectedCall: view.calls.length - 1, follow: live });
  },
  appendEvents(episodeId, events) {
    const ep = get().episode;
    if (!ep || ep.meta.id !== episodeId) return;
    if (queued && queued.episodeId === episodeId) queued.events.push(...events);
    else queued = { episodeId, events: [...events] };
    frame ??= nextFrame(() => get().flushEvents());
  },
  flushEvents() {
    const batch = queued;
    dropQueued();
    const ep = get().episode;
    if (!batch || !ep || ep.meta.id !== batch.episodeId || builder?.meta !== ep.meta) return;
    const all = [...ep.events, ...batch.events];
    const view = builder.add(batch.events).view();
    set({ episode: { ...ep, events: all, view }, ...(get().follow ? { selectedCall: view.calls.length - 1 } : {}) });
  },
  setLive(episodeId, live) {
    // The events before the run's end are applied first, so a finished episode is never shown short.
    get().flushEvents();
    const ep = get().episode;
    if (ep && ep.meta.id === episodeId) set({ episode: { ...ep, live } });
  },
  selectCall(index) {
    get().flushEvents();
    const n = get().episode?.view.calls.length ?? 0;
    const clamped = Math.max(-1, Math.min(n - 1, index));
    set({ selectedCall: clamped, follow: clamped === n - 1 });
  },
  step(delta) {
    get().selectCall(get().selectedCall + delta);
  },
  closeEpisode() {
    dropQueued();
    builder = null;
    set({ episode: null, selectedCall: -1 });
  },
}));
