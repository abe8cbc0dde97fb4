/**
 * Replay: rebuild the world from the episode's instance, re-execute every recorded action in
 * order, and compare the state hash after each with the recorded one. Mismatches are listed,
 * never hidden.
 */
import type { ActionEvent } from '../../../src-shared/episode';
import type { Environment, EnvironmentFactory } from '../agent/environment';
import { loadEpisode } from './store';

export interface ReplayStep {
  index: number;
  name: string;
  expectedHash: string;
  actualHash: string;
  match: boolean;
}

export interface ReplayReport {
  dir: string;
  episodeId: string;
  /** True when the initial state and every action's state matched. */
  matched: boolean;
  initialMatch: boolean;
  steps: ReplayStep[];
  mismatches: number;
  truncatedTail: boolean;
  wallMs: number;
}

async function reexecute(env: Environment, a: ActionEvent, budgets: { maxSimSteps: number; maxWallMs: number }): Promise<void> {
  if (a.kind === 'tool') {
    await env.callPrimitive(a.name, a.args);
    return;
  }
  const code = typeof a.args.code === 'string' ? a.args.code : '';
  await env.runCell(code, { maxSimSteps: Math.max(1, budgets.maxSimSteps - env.simSteps()), maxWallMs: budgets.maxWallMs });
}

export async function replayEpisode(dir: string, factories: Record<string, EnvironmentFactory>): Promise<ReplayReport> {
  const t0 = Date.now();
  const ep = loadEpisode(dir);
  const factory = factories[ep.meta.environment];
  if (!factory) throw new Error(`replay: no environment "${ep.meta.environment}" (known: ${Object.keys(factories).join(', ')})`);
  const env = await factory(ep.meta.instance, { language: ep.meta.settings.language });
  try {
    const start = ep.events.find((e) => e.type === 'start');
    const initialMatch = start?.type === 'start' ? start.stateHash === env.stateHash() : false;
    const steps: ReplayStep[] = [];
    for (const e of ep.events) {
      if (e.type !== 'action') continue;
      await reexecute(env, e, { maxSimSteps: ep.meta.settings.budgets.maxSimSteps, maxWallMs: Math.max(60_000, e.wallMs * 4) });
      const actualHash = env.stateHash();
      steps.push({ index: e.index, name: e.name, expectedHash: e.stateHash, actualHash, match: actualHash === e.stateHash });
    }
    const mismatches = steps.filter((s) => !s.match).length + (initialMatch ? 0 : 1);
    return { dir, episodeId: ep.meta.id, matched: mismatches === 0, initialMatch, steps, mismatches, truncatedTail: ep.truncatedTail, wallMs: Date.now() - t0 };
  } finally {
    env.dispose();
  }
}
