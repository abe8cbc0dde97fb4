import { create } from 'zustand';
import type { EpisodeEvent, EpisodeMeta } from '../../src-shared/episode';
import { buildEpisodeView, type EpisodeView } from '../episode/view';

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
  appendEvents(episodeId: string, events: EpisodeEvent[]): void;
  setLive(episodeId: string, live: boolean): void;
  selectCall(index: number): void;
  step(delta: number): void;
  closeEpisode(): void;
}

export const useStudio = create<StudioState>((set, get) => ({
  episode: null,
  selectedCall: -1,
  follow: true,
  openEpisode(meta, events, live) {
    const view = buildEpisodeView(meta, events);
    set({ episode: { meta, events, view, live }, selectedCall: view.calls.length - 1, follow: live });
  },
  appendEvents(episodeId, events) {
    const ep = get().episode;
    if (!ep || ep.meta.id !== episodeId) return;
    const all = [...ep.events, ...events];
    const view = buildEpisodeView(ep.meta, all);
    set({ episode: { ...ep, events: all, view }, ...(get().follow ? { selectedCall: view.calls.length - 1 } : {}) });
  },
  setLive(episodeId, live) {
    const ep = get().episode;
    if (ep && ep.meta.id === episodeId) set({ episode: { ...ep, live } });
  },
  selectCall(index) {
    const n = get().episode?.view.calls.length ?? 0;
    const clamped = Math.max(-1, Math.min(n - 1, index));
    set({ selectedCall: clamped, follow: clamped === n - 1 });
  },
  step(delta) {
    get().selectCall(get().selectedCall + delta);
  },
  closeEpisode() {
    set({ episode: null, selectedCall: -1 });
  },
}));
