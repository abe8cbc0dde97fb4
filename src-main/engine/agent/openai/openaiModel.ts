/**
 * The OpenAI Chat Completions adapter: the only module that imports the `openai` SDK. Any
 * OpenAI-compatible endpoint works through `baseUrl` (OpenAI, Azure, vLLM, Ollama, LM Studio,
 * OpenRouter, the test server). The SDK's own retries are turned off so that every retry is
 * reported to the loop and recorded; ours honour Retry-After (and retry-after-ms) on 429 and 5xx.
 */
import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { TokenUsage, ToolCall } from '../../../../src-shared/episode';
import { ModelRequestError, type CompleteOptions, type Model, type ModelContext, type ModelReply } from '../model';
import { toWireMessages, toWireTools } from './convert';

export interface OpenAIModelOptions {
  model: string;
  apiKey?: string;
  baseUrl?: string | null;
  stream?: boolean;
  /** Retries after the first attempt for 429, 5xx, timeouts and dropped connections. */
  maxRetries?: number;
  /** Per attempt; a hung server is abandoned after this and retried. */
  requestTimeoutMs?: number;
  /** Longest wait honoured from a Retry-After header. */
  maxRetryWaitMs?: number;
  /** First back-off without Retry-After; doubles per retry up to 8 s. */
  initialBackoffMs?: number;
  temperature?: number;
}

function retryAfterMs(headers: Headers | undefined): number | null {
  const ms = headers?.get('retry-after-ms');
  if (ms && !Number.isNaN(parseFloat(ms))) return parseFloat(ms);
  const after = headers?.get('retry-after');
  if (!after) return null;
  const sec = parseFloat(after);
  if (!Number.isNaN(sec)) return sec * 1000;
  const at = Date.parse(after);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function usageOf(u: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens?: number } } | null | undefined): TokenUsage | null {
  if (!u) return null;
  // Robocell's test server marks usage it simulated (no provider billed it); keep the label.
  const simulated = (u as { robocell_simulated?: unknown }).robocell_simulated === true;
  return { inputTokens: u.prompt_tokens, cachedInputTokens: u.prompt_tokens_details?.cached_tokens ?? 0, outputTokens: u.completion_tokens, ...(simulated ? { simulated: true } : {}) };
}

export function createOpenAIModel(opts: OpenAIModelOptions): Model {
  const baseUrl = opts.baseUrl ?? null;
  const client = new OpenAI({
    // An empty key means none (a local server); the SDK would otherwise send an empty bearer.
    apiKey: opts.apiKey || 'unset',
    baseURL: baseUrl ?? undefined,
    maxRetries: 0,
    timeout: opts.requestTimeoutMs ?? 120_000,
  });
  const stream = opts.stream ?? true;
  const maxRetries = opts.maxRetries ?? 4;

  async function attempt(ctx: ModelContext, o: CompleteOptions): Promise<Omit<ModelReply, 'retries'>> {
    const body = {
      model: opts.model,
      messages: toWireMessages(ctx.messages, ctx.loadImage),
      ...(ctx.tools.length ? { tools: toWireTools(ctx.tools), parallel_tool_calls: false } : {}),
      ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
    };
    if (!stream) {
      const res = await client.chat.completions.create({ ...body, stream: false }, { signal: o.signal });
      const choice = res.choices[0];
      const msg = choice?.message;
      const toolCalls: ToolCall[] = (msg?.tool_calls ?? []).flatMap((c) => (c.type === 'function' ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : []));
      return { text: msg?.content ?? null, refusal: msg?.refusal ?? null, toolCalls, finishReason: choice?.finish_reason ?? 'none', usage: usageOf(res.usage), raw: res };
    }
    const s = await client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }, { signal: o.signal });
    let text = '';
    let refusal = '';
    let finishReason = 'none';
    let usage: TokenUsage | null = null;
    const calls: Array<{ id: string; name: string; arguments: string }> = [];
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of s) {
      chunks.push(chunk);
      if (chunk.usage) usage = usageOf(chunk.usage);
      const choice = chunk.choices[0];
      if (!choice) continue;
      const d = choice.delta;
      if (d.content) {
        text += d.content;
        o.onDelta?.({ text: d.content });
      }
      if (d.refusal) refusal += d.refusal;
      for (const tc of d.tool_calls ?? []) {
        const c = (calls[tc.index] ??= { id: '', name: '', arguments: '' });
        if (tc.id) c.id = tc.id;
        if (tc.function?.name) c.name += tc.function.name;
        if (tc.function?.arguments) c.arguments += tc.function.arguments;
        o.onDelta?.({ toolCall: { index: tc.index, name: tc.function?.name, argumentsDelta: tc.function?.arguments } });
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
    return {
      text: text.length ? text : null,
      refusal: refusal.length ? refusal : null,
      toolCalls: calls.filter(Boolean).map((c, i) => ({ ...c, id: c.id || `call_${i}` })),
      finishReason,
      usage,
      raw: { stream: true, chunks: chunks.length, id: chunks[0]?.id ?? null, model: chunks[0]?.model ?? null },
    };
  }

  return {
    info: { name: opts.model, label: opts.model, scripted: false, baseUrl },
    async complete(ctx, o = {}) {
      for (let retries = 0; ; retries++) {
        try {
          return { ...(await attempt(ctx, o)), retries };
        } catch (err) {
          if (err instanceof APIUserAbortError || o.signal?.aborted) throw new ModelRequestError('the request was stopped', null);
          const status = err instanceof APIError && typeof err.status === 'number' ? err.status : null;
          const retryable = err instanceof APIConnectionError || status === 429 || status === 408 || (status !== null && status >= 500);
          const message = err instanceof Error ? err.message : String(err);
          if (!retryable || retries >= maxRetries) {
            throw new ModelRequestError(`model request failed${retries ? ` after ${retries} retries` : ''}: ${status ?? 'no status'} ${message}`, status);
          }
          const hinted = err instanceof APIError ? retryAfterMs(err.headers) : null;
          const waitMs = hinted !== null ? Math.min(hinted, opts.maxRetryWaitMs ?? 60_000) : Math.min((opts.initialBackoffMs ?? 500) * 2 ** retries, 8000);
          o.onRetry?.({ attempt: retries + 1, status, error: message, waitMs });
          await sleep(waitMs, o.signal);
        }
      }
    },
  };
}
