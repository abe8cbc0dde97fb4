/**
 * Per-endpoint limits shared by every worker of a run: requests in flight, requests and tokens
 * per minute (a sliding 60-second window), and one back-off for everyone when the endpoint answers
 * 429. Waiters are served first come, first served.
 */

export interface EndpointLimits {
  maxConcurrentRequests: number | null;
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
}

export const NO_LIMITS: EndpointLimits = { maxConcurrentRequests: null, requestsPerMinute: null, tokensPerMinute: null };

const WINDOW_MS = 60_000;

interface Waiter {
  tokens: number;
  resolve(permit: Permit): void;
  reject(err: Error): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export interface Permit {
  /** Corrects the token count once the API's usage is known, and frees the slot. */
  release(actualTokens?: number): void;
}

export class EndpointLimiter {
  private active = 0;
  private readonly window: Array<{ at: number; tokens: number }> = [];
  private backoffUntil = 0;
  private readonly queue: Waiter[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** Total time callers spent waiting for a permit, for the report. */
  waitedMs = 0;
  backoffs = 0;

  constructor(
    readonly limits: EndpointLimits,
    private readonly now: () => number = Date.now,
  ) {}

  acquire(tokens: number, signal?: AbortSignal): Promise<Permit> {
    const asked = this.now();
    return new Promise<Permit>((resolve, reject) => {
      if (signal?.aborted) return reject(new Error('aborted'));
      const w: Waiter = {
        tokens,
        resolve: (p) => {
          this.waitedMs += this.now() - asked;
          resolve(p);
        },
        reject,
        signal,
      };
      if (signal) {
        w.onAbort = () => {
          const i = this.queue.indexOf(w);
          if (i >= 0) this.queue.splice(i, 1);
          reject(new Error('aborted'));
        };
        signal.addEventListener('abort', w.onAbort, { once: true });
      }
      this.queue.push(w);
      this.pump();
    });
  }

  /** The endpoint said 429: nobody starts a request for `ms`. */
  backoff(ms: number): void {
    this.backoffs++;
    this.backoffUntil = Math.max(this.backoffUntil, this.now() + Math.max(0, ms));
    this.pump();
  }

  /** How long until the head of the queue may go; 0 = now. */
  private waitFor(tokens: number): number {
    const t = this.now();
    while (this.window.length && this.window[0].at <= t - WINDOW_MS) this.window.shift();
    let wait = Math.max(0, this.backoffUntil - t);
    const { maxConcurrentRequests: conc, requestsPerMinute: rpm, tokensPerMinute: tpm } = this.limits;
    if (conc !== null && this.active >= conc) return Infinity; // a release pumps again
    if (rpm !== null && this.window.length >= rpm) wait = Math.max(wait, this.window[this.window.length - rpm].at + WINDOW_MS - t);
    if (tpm !== null) {
      // A request bigger than the whole budget goes alone once the window is empty.
      const need = Math.min(tokens, tpm);
      let used = this.window.reduce((s, e) => s + e.tokens, 0);
      for (const e of this.window) {
        if (used + need <= tpm) break;
        used -= e.tokens;
        wait = Math.max(wait, e.at + WINDOW_MS - t);
      }
    }
    return wait;
  }

  private pump(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.queue.length) {
      const head = this.queue[0];
      const wait = this.waitFor(head.tokens);
      if (wait === Infinity) return;
      if (wait > 0) {
        this.timer = setTimeout(() => this.pump(), Math.ceil(wait));
        return;
      }
      this.queue.shift();
      if (head.signal && head.onAbort) head.signal.removeEventListener('abort', head.onAbort);
      const entry = { at: this.now(), tokens: head.tokens };
      this.window.push(entry);
      this.active++;
      let released = false;
      head.resolve({
        release: (actual) => {
          if (released) return;
          released = true;
          if (actual !== undefined && Number.isFinite(actual)) entry.tokens = actual;
          this.active--;
          this.pump();
        },
      });
    }
  }

  /** Rejects everyone still waiting (the run is ending). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const w of this.queue.splice(0)) w.reject(new Error('the run is ending'));
  }
}
