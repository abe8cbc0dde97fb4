import { create } from 'zustand';
import type { EpisodeSummary, RunState, TaskInfo } from '../../src-shared/protocol';
import type { AgentSettings } from '../../src-shared/episode';

interface RunStore {
  /** The engine's active run, if any (one at a time). */
  activeEpisodeId: string | null;
  state: RunState | null;
  error: string | null;
  tasks: TaskInfo[];
  defaults: AgentSettings | null;
  cameras: string[];
  library: EpisodeSummary[];
  /** Last error from an action the user took (shown in the status line). */
  notice: { kind: 'error' | 'info'; text: string } | null;
}

export const useRun = create<RunStore>(() => ({
  activeEpisodeId: null,
  state: null,
  error: null,
  tasks: [],
  defaults: null,
  cameras: [],
  library: [],
  notice: null,
}));

export function notify(kind: 'error' | 'info', text: string): void {
  useRun.setState({ notice: { kind, text } });
}
