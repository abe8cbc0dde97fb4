/**
 * What stops an experiment before it records a folder full of identical failures: one request to
 * the endpoint before the first episode (the probe Settings' Test connection sends), and a watch on
 * the run's first episodes that stops the run when they all end in the same model error.
 */
import type { SamplingSettings } from '../../../src-shared/episode';
import { failureOutcome, type ResultRecord } from '../../../src-shared/experiments';
import { probeEndpoint } from '../agent/endpointProbe';

/** How many times the preflight asks before it stops the run. */
export const PREFLIGHT_ATTEMPTS = 3;
/** The waits between those attempts (ms). */
export const PREFLIGHT_RETRY_DELAYS_MS = [1_000, 3_000];

/**
 * The statuses that name the request itself: the key (401, 403), the route or model (404), a
 * parameter (400, 422). Asking again cannot cure them. Anything else (a 429, a 5xx, a timeout, a
 * dropped connection, a reply cut short or malformed) may be the endpoint's moment, not the run's
 * fault, and one such answer must not stop a run of hundreds of episodes before it starts.
 */
const DEFINITIVE = new Set([400, 401, 403, 404, 422]);

/** null when the endpoint answered; else why the run stops, with the provider's message. */
export async function preflightEndpoint(
  model: { name: string; baseUrl: string | null; sampling?: SamplingSettings },
  env: NodeJS.ProcessEnv,
  delaysMs: readonly number[] = PREFLIGHT_RETRY_DELAYS_MS,
): Promise<string | null> {
  let message = '';
  let attempts = 0;
  while (attempts < PREFLIGHT_ATTEMPTS) {
    if (attempts > 0) await new Promise((r) => setTimeout(r, delaysMs[Math.min(attempts - 1, delaysMs.length - 1)] ?? 0));
    attempts++;
    let r: { ok: boolean; message: string; status?: number | null };
    try {
      // With the spec's sampling: an endpoint that refuses a parameter stops the run here, not in every episode.
      r = await probeEndpoint({ name: model.name, baseUrl: model.baseUrl, sampling: model.sampling }, env);
    } catch (err) {
      r = { ok: false, message: err instanceof Error ? err.message : String(err) };
    }
    if (r.ok) return null;
    message = r.message;
    if (r.status != null && DEFINITIVE.has(r.status)) break;
  }
  const tries = attempts > 1 ? ` (${attempts} tries)` : '';
  return `preflight: the endpoint did not answer a test request${tries}, so no episode was run: ${message}`;
}

/** The first episodes a run watches; all of them ending in the same model error stops the run. */
export const EARLY_STOP_EPISODES = 3;

/** A model error's reason with its numbers blanked (request ids, ports, call counts differ between episodes). */
function sameWay(reason: string): string {
  return reason.replace(/\d+/g, '#').slice(0, 400);
}

export class EarlyStopWatch {
  private seen: ResultRecord[] = [];
  private done = false;
  /** `toRun`: the keys this run has to run; a run of fewer than EARLY_STOP_EPISODES is never stopped early. */
  constructor(private readonly toRun: number) {}

  /** The stop's detail once the run's first episodes all failed the same way at the endpoint, else null. */
  see(r: ResultRecord): string | null {
    if (this.done || this.toRun < EARLY_STOP_EPISODES) return null;
    this.seen.push(r);
    if (this.seen.length < EARLY_STOP_EPISODES) return null;
    this.done = true;
    const first = this.seen[0];
    const all = this.seen.every((x) => failureOutcome(x) === 'model-error' && sameWay(x.reason) === sameWay(first.reason));
    if (!all) return null;
    return (
      `stopped early: the first ${EARLY_STOP_EPISODES} episodes of this run all ended in the same ` +
      `model error, at the endpoint (${first.reason.slice(0, 300)}); the other episodes were not run`
    );
  }
}
