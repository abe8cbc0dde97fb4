import { notify, useRun } from '../store/run';
import type { EngineClient } from '../transport/client';

export type RunAction = 'pause' | 'resume' | 'step' | 'stop';

/**
 * What Step does, in one sentence for its button, the shortcut sheet and the start-paused hint: a
 * debugger's step to the next point between model calls, wherever the pause landed.
 */
export const STEP_DOES = 'step the paused run: paused mid-action, finish that action (no new model call); paused between calls, run one model call and its action; then pause before the next call';

/** Pause, resume, single-step or stop the active run (buttons and keyboard share this). */
export async function controlRun(client: EngineClient, action: RunAction): Promise<void> {
  const { activeEpisodeId } = useRun.getState();
  if (!activeEpisodeId) return;
  try {
    const r = await client.request('run/control', { episodeId: activeEpisodeId, action });
    useRun.setState({ state: r.state });
  } catch (err) {
    notify('error', `${action} failed: ${(err as Error).message}`);
  }
}

/** Space: pause a running run, resume a paused one. */
export function togglePause(client: EngineClient): boolean {
  const { activeEpisodeId, state } = useRun.getState();
  if (!activeEpisodeId || (state !== 'running' && state !== 'paused')) return false;
  void controlRun(client, state === 'paused' ? 'resume' : 'pause');
  return true;
}

/** S: step a paused run (nothing to do while it runs). */
export function stepIfPaused(client: EngineClient): boolean {
  const { activeEpisodeId, state } = useRun.getState();
  if (!activeEpisodeId || state !== 'paused') return false;
  void controlRun(client, 'step');
  return true;
}
