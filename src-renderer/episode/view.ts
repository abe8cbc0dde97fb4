import type { ActionEvent, EpisodeEvent, EpisodeMeta, ModelFaultEvent, ModelReplyEvent, ModelRequestEvent, ToolsEvent, VerdictEvent } from '../../src-shared/episode';
import type { Message } from '../../src-shared/episode/messages';
import { estimateMessage, estimateTools, imageFamilyForModel } from '../../src-shared/tokens';

export type CallKind = 'cell' | 'tool' | 'image' | 'error' | 'finish' | 'pending';

export interface ContextEntry {
  index: number;
  message: Message;
  tokens: number;
  imageTokens: number;
  /** First sent in this call (true) or re-sent from earlier calls (false). */
  isNew: boolean;
}

export interface CallView {
  call: number;
  request: ModelRequestEvent;
  reply: ModelReplyEvent | null;
  faults: ModelFaultEvent[];
  retries: number;
  context: ContextEntry[];
  /** Local estimate of the reply's tokens (the API's output figure is in reply.usage). */
  replyTokens: number;
  actions: ActionEvent[];
  kind: CallKind;
  /** Input tokens so far including this call: the API's figure where known, else the estimate. */
  cumulativeInputTokens: number;
  /** Null while any call so far has an unknown cost (no price for the model): unknown stays unknown. */
  cumulativeCostUsd: number | null;
}

export interface EpisodeView {
  meta: EpisodeMeta;
  tools: ToolsEvent | null;
  toolTokens: number;
  calls: CallView[];
  verdict: VerdictEvent | null;
  messages: Message[];
  /** `t` of the newest event (ms since the episode started). */
  lastEventT: number;
}

/**
 * Token estimates per message object. Events keep their identity as a live episode grows, so
 * re-deriving the view tokenizes only the new messages (a 200-call episode would otherwise
 * re-tokenize its whole history on every event).
 */
const estimateCache = new WeakMap<Message, { total: number; imageTokens: number }>();

function estimateOf(m: Message, imageCost: ReturnType<typeof imageFamilyForModel>): { total: number; imageTokens: number } {
  let e = estimateCache.get(m);
  if (!e) {
    const full = estimateMessage(toTokenMessage(m), imageCost);
    e = { total: full.total, imageTokens: full.imageTokens };
    estimateCache.set(m, e);
  }
  return e;
}

/**
 * Derives what the panels show from an episode's events. Pure: the same events give the same
 * view, and a live episode re-derives as events arrive (messages are cached by index).
 */
export function buildEpisodeView(meta: EpisodeMeta, events: readonly EpisodeEvent[]): EpisodeView {
  // The model's own image pricing (family and patch multiplier), as the engine counts it.
  const imageCost = imageFamilyForModel(meta.model.name);
  const messages: Message[] = [];
  const estimates: Array<{ total: number; imageTokens: number }> = [];
  let tools: ToolsEvent | null = null;
  let verdict: VerdictEvent | null = null;
  const calls: CallView[] = [];
  const byCall = new Map<number, CallView>();
  let prevCount = 0;
  let lastEventT = 0;
  for (const ev of events) {
    lastEventT = Math.max(lastEventT, ev.t);
    switch (ev.type) {
      case 'tools':
        tools = ev;
        break;
      case 'message': {
        messages[ev.index] = ev.message;
        estimates[ev.index] = estimateOf(ev.message, imageCost);
        break;
      }
      case 'model/request': {
        const context: ContextEntry[] = [];
        for (let i = 0; i < ev.messageCount && i < messages.length; i++) {
          context.push({ index: i, message: messages[i], tokens: estimates[i]?.total ?? 0, imageTokens: estimates[i]?.imageTokens ?? 0, isNew: i >= prevCount });
        }
        prevCount = ev.messageCount;
        const view: CallView = { call: ev.call, request: ev, reply: null, faults: [], retries: 0, context, replyTokens: 0, actions: [], kind: 'pending', cumulativeInputTokens: 0, cumulativeCostUsd: 0 };
        calls.push(view);
        byCall.set(ev.call, view);
        break;
      }
      case 'model/reply': {
        const c = byCall.get(ev.call);
        if (c) {
          c.reply = ev;
          c.replyTokens = estimateOf(ev.reply, imageCost).total;
        }
        break;
      }
      case 'model/fault':
        byCall.get(ev.call)?.faults.push(ev);
        break;
      case 'model/retry': {
        const c = byCall.get(ev.call);
        if (c) c.retries = Math.max(c.retries, ev.attempt);
        break;
      }
      case 'action':
        byCall.get(ev.call)?.actions.push(ev);
        break;
      case 'verdict':
        verdict = ev;
        break;
    }
  }
  let cumIn = 0;
  let cumCost: number | null = 0;
  calls.forEach((c, i) => {
    cumIn += c.reply?.usage?.inputTokens ?? c.request.estimate.total;
    // A call without a reply yet costs nothing so far; a reply with no price makes the sum unknown.
    if (c.reply) cumCost = c.reply.costUsd === null || cumCost === null ? null : cumCost + c.reply.costUsd;
    c.cumulativeInputTokens = cumIn;
    c.cumulativeCostUsd = cumCost;
    // The newest call of an episode without a verdict may still be acting: it is not an error yet.
    c.kind = callKind(c, !verdict && i === calls.length - 1);
  });
  // The episode ended on this call's outcome (solved, or the model said so); a budget end is not a finish.
  if (verdict && calls.length && (verdict.finish === 'success' || verdict.finish === 'model-finished')) {
    const last = calls[calls.length - 1];
    if (last.kind !== 'error') last.kind = 'finish';
  }
  return { meta, tools, toolTokens: tools ? toolTokensOf(tools) : 0, calls, verdict, messages, lastEventT };
}

const toolTokenCache = new WeakMap<ToolsEvent, number>();
function toolTokensOf(tools: ToolsEvent): number {
  let n = toolTokenCache.get(tools);
  if (n === undefined) toolTokenCache.set(tools, (n = estimateTools(tools.tools)));
  return n;
}

function callKind(c: CallView, inFlight: boolean): CallKind {
  if (c.faults.length || c.actions.some((a) => !a.ok && !finishedTask(a))) return 'error';
  if (!c.reply) return 'pending';
  if (inFlight && c.actions.length === 0 && c.reply.reply.toolCalls?.length) return 'pending';
  if (c.reply.reply.toolCalls?.some((t) => t.name === 'finish')) return 'finish';
  if (c.actions.some((a) => a.images.length > 0)) return 'image';
  if (c.actions.some((a) => a.kind === 'cell')) return 'cell';
  if (c.actions.length) return 'tool';
  return 'error';
}

function toTokenMessage(m: Message) {
  if (m.role === 'user' && Array.isArray(m.content)) {
    return { role: m.role, content: m.content.map((p) => (p.type === 'text' ? p : { type: 'image' as const, widthPx: p.widthPx, heightPx: p.heightPx, detail: p.detail })) };
  }
  if (m.role === 'tool') return { role: m.role, content: m.content, toolCallId: m.toolCallId };
  if (m.role === 'assistant') return { role: m.role, content: m.content, toolCalls: m.toolCalls };
  return { role: m.role, content: m.content as string };
}

/** A cell that ended because the task was solved (the episode then ends): a success, not an error. */
export function finishedTask(a: ActionEvent): boolean {
  return a.cell?.stop?.reason === 'episode-finished' || a.ledger.some((l) => l.outcome === 'finished');
}
