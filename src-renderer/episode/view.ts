import { foldEvents, type ActionEvent, type EpisodeEvent, type EpisodeMeta, type ModelFaultEvent, type ModelReplyEvent, type ModelRequestEvent, type ToolsEvent, type VerdictEvent } from '../../src-shared/episode';
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
 * Derives what the panels show from an episode's events, through the shared fold
 * (src-shared/episode/fold.ts) so calls, context and totals match the engine's. Pure: the same
 * events give the same view, and a live episode re-derives as events arrive (token estimates are
 * cached by message).
 */
export function buildEpisodeView(meta: EpisodeMeta, events: readonly EpisodeEvent[]): EpisodeView {
  // The model's own image pricing (family and patch multiplier), as the engine counts it.
  const imageCost = imageFamilyForModel(meta.model.name);
  const fold = foldEvents(events);
  const verdict = fold.verdict;
  const calls: CallView[] = fold.calls.map((c) => ({
    call: c.call,
    request: c.request,
    reply: c.reply,
    faults: c.faults,
    retries: c.retries,
    context: fold.messages.slice(0, Math.min(c.request.messageCount, c.messagesRecorded)).map((message, index) => {
      const est = estimateOf(message, imageCost);
      return { index, message, tokens: est.total, imageTokens: est.imageTokens, isNew: index >= c.prevMessageCount };
    }),
    replyTokens: c.reply ? estimateOf(c.reply.reply, imageCost).total : 0,
    actions: c.actions,
    kind: 'pending',
    cumulativeInputTokens: 0,
    cumulativeCostUsd: 0,
  }));
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
  const tools = fold.tools;
  return { meta, tools, toolTokens: tools ? toolTokensOf(tools) : 0, calls, verdict, messages: fold.messages, lastEventT: fold.lastEventT };
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
