export interface RestartPolicyOptions {
  initialDelayMs: number;
  maxDelayMs: number;
  /** A run at least this long counts as stable: the back-off starts over after it. */
  stableAfterMs: number;
  /** Give up at this many failures in a row, each within stableAfterMs of its start. */
  maxRapidFailures: number;
  now: () => number;
}

export const DEFAULT_RESTART_POLICY: Omit<RestartPolicyOptions, 'now'> = {
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  stableAfterMs: 60_000,
  maxRapidFailures: 8,
};

export type RestartDecision = { action: 'restart'; delayMs: number } | { action: 'give-up'; message: string };

/** Exponential back-off for restarting the engine: 0.5 s, 1 s, 2 s … 30 s, reset by a stable run. */
export class RestartPolicy {
  private readonly opts: RestartPolicyOptions;
  private rapidFailures = 0;
  private startedAtMs: number | null = null;

  constructor(opts: Partial<RestartPolicyOptions> & { now: () => number }) {
    this.opts = { ...DEFAULT_RESTART_POLICY, ...opts };
    if (!(this.opts.initialDelayMs > 0 && this.opts.maxDelayMs >= this.opts.initialDelayMs)) {
      throw new Error(`RestartPolicy: need 0 < initialDelayMs <= maxDelayMs, got ${this.opts.initialDelayMs} and ${this.opts.maxDelayMs}`);
    }
    if (!(Number.isInteger(this.opts.maxRapidFailures) && this.opts.maxRapidFailures >= 1)) {
      throw new Error(`RestartPolicy: maxRapidFailures must be an integer >= 1, got ${this.opts.maxRapidFailures}`);
    }
  }

  /** Call when an engine process starts (spawned, not yet ready). */
  started(): void {
    this.startedAtMs = this.opts.now();
  }

  /** Call when the engine died or failed to start; says whether and when to try again. */
  failed(): RestartDecision {
    const ranMs = this.startedAtMs === null ? 0 : this.opts.now() - this.startedAtMs;
    this.startedAtMs = null;
    if (ranMs >= this.opts.stableAfterMs) this.rapidFailures = 0;
    this.rapidFailures += 1;
    if (this.rapidFailures >= this.opts.maxRapidFailures) {
      return {
        action: 'give-up',
        message:
          `The engine failed ${this.rapidFailures} times in a row, each within ` +
          `${Math.round(this.opts.stableAfterMs / 1000)} s of starting. See the engine log for why; ` +
          'restart it from the menu once the cause is fixed.',
      };
    }
    const delayMs = Math.min(this.opts.initialDelayMs * 2 ** (this.rapidFailures - 1), this.opts.maxDelayMs);
    return { action: 'restart', delayMs };
  }

  /** A manual restart: forget past failures. */
  reset(): void {
    this.rapidFailures = 0;
    this.startedAtMs = null;
  }
}
