/**
 * Limits on what an endpoint may send back, enforced under the SDK: a custom `fetch` counts the
 * body's bytes (the SDK would otherwise buffer an endless reply, or one endless SSE line) and
 * notices the first byte (a server that accepts the request and then says nothing is abandoned).
 * One guard per attempt, handed to the fetch through the request's `fetchOptions`.
 */
import type { SeenResponse } from './wireReply';

export interface ReplyLimits {
  /** Raw response body bytes (SSE framing included) before the reply is cut off. */
  maxReplyBytes: number;
  /** From sending the request to the first byte of the response body. */
  firstByteTimeoutMs: number;
}

export const DEFAULT_REPLY_LIMITS: ReplyLimits = { maxReplyBytes: 32 * 1024 * 1024, firstByteTimeoutMs: 120_000 };

export class ReplyTooLargeError extends Error {
  override name = 'ReplyTooLargeError';
}

/** The property under which a guard travels in the SDK's per-request `fetchOptions`. */
const GUARD_KEY = 'robocellReplyGuard';

/** How much of the body's start is kept for an error message (seen). */
const HEAD_CHARS = 400;

export class ReplyGuard {
  bytes = 0;
  /** The response's status, content type and first characters: what an error says when the body is not a completion. */
  seen: SeenResponse | null = null;
  /** For a streamed request: a body that is no event stream is kept whole (it may be a completion sent unstreamed). */
  keepUnstreamedBody = false;
  tooLarge = false;
  slow = false;
  private readonly ttfb = new AbortController();
  private timer: ReturnType<typeof setTimeout> | null;

  constructor(readonly limits: ReplyLimits) {
    this.timer = setTimeout(() => {
      this.slow = true;
      this.ttfb.abort(new Error(`no reply byte within ${limits.firstByteTimeoutMs} ms`));
    }, limits.firstByteTimeoutMs);
  }

  /** Aborted when the first byte is late; combine with the caller's signal. */
  get signal(): AbortSignal {
    return this.ttfb.signal;
  }

  firstByte(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  dispose(): void {
    this.firstByte();
  }

  /** What to pass as the request's `fetchOptions` (the SDK spreads it into the fetch init). */
  fetchOptions(): Record<string, never> {
    return { [GUARD_KEY]: this } as unknown as Record<string, never>;
  }
}

/** A `fetch` for the SDK that applies the guard carried in the request's options (if any). */
export function guardedFetch(base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const { [GUARD_KEY]: guard, ...rest } = (init ?? {}) as RequestInit & { [GUARD_KEY]?: ReplyGuard };
    const res = await base(input, rest);
    if (guard) {
      const contentType = res.headers.get('content-type');
      const whole = guard.keepUnstreamedBody && !/^text\/event-stream/i.test(contentType ?? ''); // within maxReplyBytes
      guard.seen = { status: res.status, contentType, head: '', ...(whole ? { whole: [] } : {}) };
    }
    if (!guard || !res.body) {
      guard?.firstByte();
      return res;
    }
    const seen = guard.seen!;
    const decoder = new TextDecoder();
    const limited = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, ctl) {
          guard.firstByte();
          guard.bytes += chunk.byteLength;
          seen.whole?.push(chunk);
          if (seen.head.length < HEAD_CHARS) seen.head = (seen.head + decoder.decode(chunk.subarray(0, HEAD_CHARS), { stream: true })).slice(0, HEAD_CHARS);
          if (guard.bytes > guard.limits.maxReplyBytes) {
            guard.tooLarge = true;
            ctl.error(new ReplyTooLargeError(`the reply passed ${guard.limits.maxReplyBytes} bytes`));
            return;
          }
          ctl.enqueue(chunk);
        },
        flush() {
          guard.firstByte();
        },
      }),
    );
    const wrapped = new Response(limited, { status: res.status, statusText: res.statusText, headers: res.headers });
    Object.defineProperty(wrapped, 'url', { value: res.url });
    return wrapped;
  };
}
