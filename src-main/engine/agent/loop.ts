/**
 * The agent loop shared by both arms: ask the model, act on its one tool call, answer with the
 * result (and images), record everything, stop on success, on `finish` or when a budget runs out.
 * It sees only an Environment (environment.ts), whichever world is behind it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEFAULT_CELL_LANGUAGE,
  EPISODE_SCHEMA_VERSION,
  outcomeOf,
  type AgentSettings,
  type CellLanguage,
  type Arm,
  type EpisodeEvent,
  type EpisodeEventInput,
  type EpisodeMeta,
  type FinishKind,
  type ImagePart,
  type Message,
  type ModelFaultEvent,
  type Outcome,
  type Totals,
  type ToolCall,
  type ToolDef,
} from '../../../src-shared/episode';
import { countTextTokens, estimateContext, imageFamilyForModel, type PriceTable } from '../../../src-shared/tokens';
import { ENGINE_VERSION } from '../../../src-shared/version';
import { EpisodeWriter, newEpisodeId } from '../episodes/store';
import { Tally } from './accounting';
import { executeAction, type ActionContext } from './actions';
import type { Environment, Observation } from './environment';
import { ModelRequestError, type Model, type ModelDelta } from './model';
import { codeTool, FINISH_TOOL, primitiveTools, systemPrompt } from './prompt';

export const DEFAULT_SETTINGS: AgentSettings = {
  images: 'on-demand',
  feedback: 'pure',
  cameras: ['front', 'wrist'],
  imageDetail: 'low',
  budgets: { maxModelCalls: 40, maxWallMs: 15 * 60_000, maxSimSteps: 400_000 },
  language: DEFAULT_CELL_LANGUAGE,
};

export interface RunEpisodeOptions {
  env: Environment;
  model: Model;
  arm: Arm;
  settings?: AgentSettings;
  /** Folder that receives the episode's folder. */
  outRoot: string;
  prices?: PriceTable;
  signal?: AbortSignal;
  onEvent?: (event: EpisodeEvent) => void;
  onDelta?: (delta: ModelDelta) => void;
  /** Called once the episode folder exists, before the first event. */
  onStart?: (meta: EpisodeMeta, dir: string) => void;
  /** Awaited before each model call: the studio's pause and single-step gate. */
  beforeCall?: (call: number) => Promise<void>;
}

export interface EpisodeOutcome {
  dir: string;
  meta: EpisodeMeta;
  success: boolean;
  finish: FinishKind;
  /** The shared vocabulary of how it ended (src-shared/episode/outcome). */
  outcome: Outcome;
  reason: string;
  totals: Totals;
}

export function toolsFor(arm: Arm, env: Environment, language: CellLanguage = DEFAULT_CELL_LANGUAGE): ToolDef[] {
  return arm === 'tools' ? [...primitiveTools(env.registry.list(), env.words), FINISH_TOOL] : [codeTool(language), FINISH_TOOL];
}

/**
 * The first request of an episode, exactly as the loop sends it: the tools and the system and
 * first user messages. `robocell prompt` prints this.
 */
export function initialContext(env: Environment, arm: Arm, settings: AgentSettings): { tools: ToolDef[]; messages: Message[] } {
  const tools = toolsFor(arm, env, settings.language);
  // An environment without cameras has no image to attach, whatever cameras the settings name.
  const cameras = env.cameras.length > 0 ? settings.cameras : [];
  const imagesAfterMotion = arm === 'tools' ? cameras.length > 0 : settings.images === 'on-motion' && cameras.length > 0;
  const system = systemPrompt({
    arm,
    instruction: env.instruction,
    specs: env.registry.list(),
    cameras,
    imagesAfterMotion,
    imagesAvailable: env.imagesAvailable?.() ?? true,
    imagesOff: arm === 'code' && settings.images === 'none',
    preamble: env.preamble?.(),
    words: env.words,
    feedback: settings.feedback,
    maxModelCalls: settings.budgets.maxModelCalls,
    language: settings.language,
  });
  return { tools, messages: [{ role: 'system', content: system }, { role: 'user', content: env.instruction }] };
}

export function buildMeta(env: Environment, model: Model, arm: Arm, settings: AgentSettings): EpisodeMeta {
  const base = { instance: env.instance, arm };
  return {
    schemaVersion: EPISODE_SCHEMA_VERSION,
    id: newEpisodeId(base),
    createdAt: new Date().toISOString(),
    environment: env.kind,
    ...base,
    model: model.info,
    settings,
    versions: { robocell: ENGINE_VERSION, node: process.version, ...env.versions() },
    modelFileHashes: env.modelFileHashes(),
    instruction: env.instruction,
    ...(env.imagesAvailable ? { imagesAvailable: env.imagesAvailable() } : {}),
  };
}

export async function runEpisode(o: RunEpisodeOptions): Promise<EpisodeOutcome> {
  const { env, model, arm } = o;
  const settings = o.settings ?? DEFAULT_SETTINGS;
  const meta = buildMeta(env, model, arm, settings);
  const writer = EpisodeWriter.create(o.outRoot, meta);
  o.onStart?.(meta, writer.dir);
  const tally = new Tally(model.info.name, o.prices);
  // The model's own image pricing: its family and, for patch-priced models, its multiplier.
  const imageCost = imageFamilyForModel(model.info.name);
  const images = new Map<string, Uint8Array>();
  const messages: Message[] = [];
  const rec = (e: EpisodeEventInput) => {
    const full = writer.append(e);
    o.onEvent?.(full);
  };
  const push = (m: Message) => {
    rec({ type: 'message', index: messages.length, message: m });
    messages.push(m);
  };
  const fault = (call: number, kind: ModelFaultEvent['kind'], detail: string) => rec({ type: 'model/fault', call, kind, detail });
  const saveImages = (obs: Observation[], prefix: string): ImagePart[] =>
    obs.map((ob) => {
      const file = writer.writeImage(`${prefix}-${ob.label.replace(/[^A-Za-z0-9_-]/g, '_')}.png`, ob.png);
      images.set(file, ob.png);
      return { type: 'image', file, widthPx: ob.widthPx, heightPx: ob.heightPx, detail: settings.imageDetail, label: ob.label };
    });
  const loadImage = (file: string) => images.get(file) ?? readFileSync(join(writer.dir, file));

  let finish: FinishKind = 'error';
  let reason = '';
  let modelStatus: string | null = null;
  let modelSummary: string | null = null;
  try {
    rec({ type: 'start', stateHash: env.stateHash(), snapshotFile: writer.writeSnapshot(0, env.snapshot()) });
    const first = initialContext(env, arm, settings);
    const tools = first.tools;
    rec({ type: 'tools', tools });
    for (const m of first.messages) push(m);
    const actx: ActionContext = { env, arm, settings, writer, saveImages };
    const { budgets } = settings;
    // Time spent held at the studio's pause gate is not the agent's: it does not count against the wall budget.
    let heldMs = 0;
    const budgetElapsedMs = () => writer.elapsedMs() - heldMs;
    for (let call = 1; ; call++) {
      const gateStarted = performance.now();
      await o.beforeCall?.(call);
      heldMs += Math.round(performance.now() - gateStarted);
      if (o.signal?.aborted) {
        [finish, reason] = ['stopped', stoppedWhy(o.signal)];
        break;
      }
      if (call > budgets.maxModelCalls) {
        [finish, reason] = ['budget-calls', `out of model calls (${budgets.maxModelCalls})`];
        break;
      }
      const leftMs = budgets.maxWallMs - budgetElapsedMs();
      if (leftMs <= 0) {
        [finish, reason] = ['budget-wall', `out of wall time (${budgets.maxWallMs} ms)`];
        break;
      }
      const estimate = estimateContext(messages, tools, imageCost);
      rec({ type: 'model/request', call, messageCount: messages.length, estimate: { textTokens: estimate.textTokens, imageTokens: estimate.imageTokens, total: estimate.total } });
      const signal = o.signal ? AbortSignal.any([o.signal, AbortSignal.timeout(leftMs)]) : AbortSignal.timeout(leftMs);
      const started = performance.now();
      let reply;
      try {
        reply = await model.complete({ messages: [...messages], tools, loadImage }, { signal, onDelta: o.onDelta, onRetry: (r) => rec({ type: 'model/retry', call, ...r }), onFault: (f) => fault(call, f.kind, f.detail) });
      } catch (err) {
        const msg = err instanceof Error ? err.message : String(err);
        fault(call, 'request-failed', msg);
        if (o.signal?.aborted) [finish, reason] = ['stopped', stoppedWhy(o.signal)];
        else if (budgetElapsedMs() >= budgets.maxWallMs) [finish, reason] = ['budget-wall', `out of wall time (${budgets.maxWallMs} ms) waiting for the model`];
        else [finish, reason] = ['model-error', err instanceof ModelRequestError ? msg : `model failed: ${msg}`];
        break;
      }
      const assistant: Message = { role: 'assistant', content: reply.text, ...(reply.toolCalls.length ? { toolCalls: reply.toolCalls } : {}), ...(reply.refusal ? { refusal: reply.refusal } : {}) };
      const estOut = countTextTokens(reply.text ?? '') + reply.toolCalls.reduce((s, c) => s + countTextTokens(c.arguments) + countTextTokens(c.name), 0);
      // An offline model's usage is never billed: whatever it reports is simulated, and says so.
      const usage = reply.usage && model.info.scripted && !reply.usage.simulated ? { ...reply.usage, simulated: true } : reply.usage;
      const cost = tally.addCall(usage, estimate, estOut);
      rec({ type: 'model/reply', call, reply: assistant, finishReason: reply.finishReason, usage, estimate: { textTokens: estimate.textTokens, imageTokens: estimate.imageTokens, total: estimate.total }, costUsd: cost, latencyMs: performance.now() - started, retries: reply.retries });
      push(assistant);

      if (reply.toolCalls.length === 0) {
        if (reply.refusal) {
          fault(call, 'refusal', reply.refusal);
          push({ role: 'user', content: `Error: your reply was a refusal ("${reply.refusal}"). This is a simulated task; continue with one tool call, or call finish.` });
        } else {
          fault(call, 'empty-reply', reply.text ? `text only: ${reply.text.slice(0, 200)}` : 'no text and no tool call');
          push({ role: 'user', content: 'Error: your reply had no tool call. Reply with exactly one tool call (or call finish).' });
        }
        continue;
      }
      const [first, ...extra] = reply.toolCalls;
      const answers: Message[] = [];
      let followUp: Message | null = null;
      const answer = (c: ToolCall, content: string) => answers.push({ role: 'tool', toolCallId: c.id, content });
      let ended = false;
      const known = new Set(tools.map((t) => t.name));
      let args: Record<string, unknown> | null = null;
      try {
        const parsed: unknown = first.arguments.trim() === '' ? {} : JSON.parse(first.arguments);
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object');
        args = parsed as Record<string, unknown>;
      } catch (err) {
        args = null;
        if (known.has(first.name)) {
          const detail = `arguments of ${first.name} are not a valid JSON object (${err instanceof Error ? err.message : String(err)}): ${first.arguments.slice(0, 200)}`;
          fault(call, 'bad-arguments', detail);
          answer(first, JSON.stringify({ ok: false, error: detail }));
        }
      }
      if (!known.has(first.name)) {
        const detail = `unknown tool "${first.name}"; the tools are: ${[...known].join(', ')}`;
        fault(call, 'unknown-tool', detail);
        answer(first, JSON.stringify({ ok: false, error: detail }));
      } else if (args && first.name === 'finish') {
        modelStatus = typeof args.status === 'string' ? args.status : null;
        modelSummary = typeof args.summary === 'string' ? args.summary : null;
        answer(first, JSON.stringify({ ok: true, result: 'episode finished' }));
        ended = true;
      } else if (args) {
        const act = await executeAction(actx, { call, toolCall: first, args, index: ++tally.actions, signal });
        answer(first, act.resultText);
        if (act.images.length) followUp = { role: 'user', content: [{ type: 'text', text: `Images after action ${tally.actions}: ${act.images.map((i) => i.label).join(', ')}` }, ...act.images] };
        rec(act.event);
      }
      for (const c of extra) {
        fault(call, 'extra-tool-calls', `${c.name} was not executed: one tool call per reply`);
        answer(c, JSON.stringify({ ok: false, error: 'not executed: make one tool call per reply; only the first one ran' }));
      }
      for (const a of answers) push(a);
      if (followUp) push(followUp);
      if (ended) {
        [finish, reason] = ['model-finished', `the model called finish(${modelStatus ?? '?'})`];
        break;
      }
      if (env.solved()) {
        [finish, reason] = ['success', 'the task was solved'];
        break;
      }
      if (env.simSteps() >= budgets.maxSimSteps) {
        [finish, reason] = ['budget-steps', `out of sim steps (${env.simSteps()} ≥ ${budgets.maxSimSteps})`];
        break;
      }
    }
  } catch (err) {
    [finish, reason] = ['error', `engine error: ${err instanceof Error ? err.message : String(err)}`];
  }
  const judged = safeJudge(env);
  const budgetEnd = finish.startsWith('budget') || finish === 'error' || finish === 'model-error' || finish === 'stopped';
  const success = !budgetEnd && judged.success;
  const fullReason = finish === 'model-finished' || finish === 'success' ? `${reason}; judge: ${judged.reason}` : reason;
  const totals = tally.totals(env.simSteps(), writer.elapsedMs());
  rec({ type: 'verdict', success, finish, reason: fullReason, modelStatus, modelSummary, totals });
  writer.close();
  return { dir: writer.dir, meta, success, finish, outcome: outcomeOf({ success, finish }), reason: fullReason, totals };
}

/** A caller that ends the episode on purpose says why as the abort reason (a string); else the user stopped it. */
function stoppedWhy(signal: AbortSignal | undefined): string {
  return typeof signal?.reason === 'string' ? signal.reason : 'stopped by the user';
}

function safeJudge(env: Environment): { success: boolean; reason: string } {
  try {
    return env.judge();
  } catch (err) {
    return { success: false, reason: `judge failed: ${err instanceof Error ? err.message : String(err)}` };
  }
}
