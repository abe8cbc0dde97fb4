/**
 * One short chat request to an endpoint through the same model adapter runs use: Settings' "Test
 * connection" and an experiment's preflight (before its first episode) both ask it, so a success
 * means episodes can reach the endpoint and a failure carries the provider's own message.
 */
import type { SamplingSettings } from '../../../src-shared/episode';
import { ModelRequestError } from './model';
import { createModel } from './models';

export interface EndpointProbe {
  name: string;
  baseUrl: string | null;
  apiKey?: string | null;
  /** Sent as the episodes will send them: an endpoint that refuses one (a reasoning model's temperature) says so here. */
  sampling?: SamplingSettings;
}

export interface EndpointProbeResult {
  ok: boolean;
  message: string;
  latencyMs: number;
  /** The HTTP status of a failed request, when the endpoint answered with one. */
  status?: number | null;
}

export const PROBE_TIMEOUT_MS = 15_000;

export async function probeEndpoint(req: EndpointProbe, env: NodeJS.ProcessEnv = process.env): Promise<EndpointProbeResult> {
  const started = performance.now();
  const where = req.baseUrl ?? env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1';
  try {
    const model = createModel(
      {
        name: req.name,
        baseUrl: req.baseUrl,
        apiKey: req.apiKey ?? undefined,
        stream: false,
        maxRetries: 0,
        requestTimeoutMs: PROBE_TIMEOUT_MS,
        sampling: req.sampling,
      },
      env,
    );
    const reply = await model.complete(
      { messages: [{ role: 'user', content: 'Reply with the single word OK.' }], tools: [], loadImage: () => new Uint8Array() },
      { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) },
    );
    const latencyMs = Math.round(performance.now() - started);
    const said = (reply.text ?? '').trim().slice(0, 60);
    const usage = reply.usage ? `, ${reply.usage.inputTokens} in / ${reply.usage.outputTokens} out tokens` : ', no usage reported';
    return { ok: true, message: `${req.name} answered in ${latencyMs} ms${said ? ` ("${said}")` : ''}${usage}`, latencyMs };
  } catch (err) {
    const latencyMs = Math.round(performance.now() - started);
    const status = err instanceof ModelRequestError ? err.status : null;
    return { ok: false, message: friendlyConnectionError(err instanceof Error ? err.message : String(err), where), latencyMs, status };
  }
}

/** The adapter's message, with what to try next for the usual causes. */
export function friendlyConnectionError(message: string, baseUrl: string): string {
  // "\bconnect\b": not "the connection closed before the reply was complete", where something did answer
  if (/ECONNREFUSED|\bconnect\b|Connection error|fetch failed/i.test(message))
    return `cannot reach ${baseUrl}: nothing answered (is the server running, and is the port right?) — ${message}`;
  if (/not a chat.completion|reply is not (valid )?JSON/i.test(message))
    return `${baseUrl} answered, but not as an OpenAI-compatible chat endpoint: check the base URL (it usually ends in /v1) — ${message}`;
  if (/\b401\b|unauthori[sz]ed|invalid api key|incorrect api key/i.test(message))
    return `the server refused the API key (401): check the key, or type it again for this endpoint — ${message}`;
  if (/\b404\b/.test(message))
    return `the server has no such route or model (404): check that the base URL ends in /v1 and the model name is right — ${message}`;
  if (/timed? ?out|abort/i.test(message)) return `no answer within ${PROBE_TIMEOUT_MS / 1000} s — ${message}`;
  return message;
}
