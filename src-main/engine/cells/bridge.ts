/**
 * Host side of `robo.*`: everything that comes from the cell is an untrusted JSON string. It is
 * parsed here (dropping `__proto__` keys), mapped from the cell's calling convention (positional
 * arguments, then one options object) onto the primitive's named arguments, checked against the
 * cell's budget, and answered with a string: `v<json>`, `e<json>`, `!` (stop), or `c<id>:<json>`
 * for a cacheable query's answer.
 *
 * The query cache: the world changes only inside primitives (the sim steps only in motions, and
 * the runtime holds the world for as long as its cell runs), so a cacheable primitive's answer
 * (PrimitiveSpec.cacheable: state, find) stays true until the cell calls anything else. The cell
 * side keeps each such answer's JSON by call (name and argument JSON) and answers a repeat from it,
 * a fresh copy each time, without the isolate hop; it forgets them all before any other call and
 * at each cell's start. It reports the repeats it answered by answer id with its next host call and
 * at the cell's end, and the host records each as its call would have been (the cell's call list,
 * the hooks, the primitive's ledger), in order, so a recorded episode is the same.
 */
import { EpisodeFinished, PrimitiveError, type NamedArgs, type Primitive, type PrimitiveRegistry, type PrimitiveSpec } from '../primitives/types';
import type { CellBudget, CellImage, CellRunHooks, CellStop, ImageExtractor, PrimitiveCallRecord } from './types';

export const STOP_REPLY = '!';
const MAX_ARGS_JSON_CHARS = 1_000_000;

/** One running cell's bookkeeping, owned by the runtime and consulted on every `robo` call. */
export interface CellState {
  startedAt: number;
  budget: CellBudget;
  hooks: CellRunHooks;
  stop?: CellStop;
  calls: PrimitiveCallRecord[];
  images: CellImage[];
  simSteps: number;
  /** Releases of the `robo` calls now waiting on a primitive; a stop releases them at once. */
  waiting: Set<() => void>;
  signalStopped(): void;
  /** The query cache's answers the cell may repeat, by id (see above); cleared by any other call. */
  answers: Map<number, CachedAnswer>;
  answerSeq: number;
}

interface CachedAnswer {
  primitive: Primitive;
  named: NamedArgs;
  value: unknown;
}

/** Answer ids a cell reports at most per hand-over (the cell side makes a real call before more). */
export const MAX_REPEATS_PER_REPORT = 1024;
/** Answers kept per cell between two other calls (distinct queries beyond it are answered uncached). */
const MAX_CACHED_ANSWERS = 256;

export function newCellState(budget: CellBudget, hooks: CellRunHooks): CellState {
  const waiting = new Set<() => void>();
  const signalStopped = () => {
    for (const release of waiting) release();
    waiting.clear();
  };
  return { startedAt: performance.now(), budget, hooks, calls: [], images: [], simSteps: 0, waiting, signalStopped, answers: new Map(), answerSeq: 0 };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Maps `robo.name(p1, p2, {opt})` onto named arguments, or explains what is wrong. */
export function toNamedArgs(spec: PrimitiveSpec, args: unknown[]): NamedArgs {
  const pos = spec.positional;
  let options: Record<string, unknown> | undefined;
  let positional = args;
  const last = args[args.length - 1];
  if (args.length === pos.length + 1) {
    if (!isPlainObject(last)) throw new PrimitiveError(`robo.${spec.name}: argument ${args.length} must be an options object {${spec.options.map((o) => o.name).join(', ')}}`);
    options = last;
    positional = args.slice(0, -1);
  } else if (args.length > pos.length + 1) {
    throw new PrimitiveError(`robo.${spec.name} takes ${pos.length} positional argument(s) and an optional options object; got ${args.length} arguments`);
  } else if (args.length > 0 && isPlainObject(last) && pos[args.length - 1]?.optional && !pos[args.length - 1].schema.safeParse(last).success) {
    // `robo.show({ width: 640 })` when `camera` is an optional positional: the object is the options.
    options = last;
    positional = args.slice(0, -1);
  }
  const named: NamedArgs = {};
  pos.forEach((p, i) => {
    if (i < positional.length && positional[i] !== undefined && positional[i] !== null) named[p.name] = positional[i];
    else if (!p.optional) throw new PrimitiveError(`robo.${spec.name}: missing argument ${i + 1} '${p.name}' (${p.type})`);
  });
  if (options) {
    const allowed = new Set(spec.options.map((o) => o.name));
    for (const key of Object.keys(options)) {
      if (!allowed.has(key)) {
        const list = spec.options.length ? spec.options.map((o) => o.name).join(', ') : 'none';
        throw new PrimitiveError(`robo.${spec.name}: unknown option '${key}' (options: ${list})`);
      }
      if (options[key] !== undefined) named[key] = options[key];
    }
  }
  return named;
}

/**
 * The default image convention: a primitive result that is, or has under `image`, an object with a
 * string `mimeType` and `bytes` (Uint8Array), `base64` or `path`; or the robot registry's `show`
 * result (`{ png, widthPx, heightPx, camera }`). The cell sees an image id in place of the bytes.
 * (`image` keeps its `png`: that primitive exists to hand the bytes to the cell's own code.)
 */
export const defaultImageExtractor: ImageExtractor = (primitive, result, nextId) => {
  const asImage = (v: unknown): CellImage | null => {
    if (!isPlainObject(v) || typeof v.mimeType !== 'string') return null;
    const bytes = v.bytes instanceof Uint8Array ? v.bytes : typeof v.base64 === 'string' ? new Uint8Array(Buffer.from(v.base64, 'base64')) : undefined;
    const path = typeof v.path === 'string' ? v.path : undefined;
    if (!bytes && !path) return null;
    return {
      id: nextId(),
      primitive,
      mimeType: v.mimeType,
      width: typeof v.width === 'number' ? v.width : undefined,
      height: typeof v.height === 'number' ? v.height : undefined,
      caption: typeof v.caption === 'string' ? v.caption : undefined,
      bytes,
      path,
    };
  };
  const brief = (img: CellImage) => ({ id: img.id, mimeType: img.mimeType, width: img.width, height: img.height, caption: img.caption });
  if (primitive === 'show' && isPlainObject(result) && result.png instanceof Uint8Array) {
    const { png, widthPx, heightPx, ...rest } = result;
    const img: CellImage = {
      id: nextId(),
      primitive,
      mimeType: 'image/png',
      width: typeof widthPx === 'number' ? widthPx : undefined,
      height: typeof heightPx === 'number' ? heightPx : undefined,
      caption: typeof rest.camera === 'string' ? rest.camera : undefined,
      bytes: png as Uint8Array,
    };
    return { images: [img], forCell: { ...rest, widthPx, heightPx, image: img.id } };
  }
  const whole = asImage(result);
  if (whole) return { images: [whole], forCell: brief(whole) };
  if (isPlainObject(result)) {
    const inner = asImage(result.image);
    if (inner) return { images: [inner], forCell: { ...result, image: brief(inner) } };
  }
  return { images: [], forCell: result };
};

/** Whether JSON.stringify needs the typed-array replacer: a replacer costs a callback per value, most of a cheap call. */
function needsReplacer(v: unknown, depth: number): boolean {
  if (v === null || typeof v !== 'object') return false;
  if (ArrayBuffer.isView(v)) return !(v instanceof DataView);
  // deep values and toJSON results are left to the exact (slow) path
  if (depth > 32 || typeof (v as { toJSON?: unknown }).toJSON === 'function') return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (needsReplacer(v[i], depth + 1)) return true;
    return false;
  }
  for (const k of Object.keys(v)) if (needsReplacer((v as Record<string, unknown>)[k], depth + 1)) return true;
  return false;
}

const typedArraysAsArrays = (_k: string, v: unknown): unknown => (ArrayBuffer.isView(v) && !(v instanceof DataView) ? Array.from(v as unknown as ArrayLike<number>) : v);

function toJsonForCell(value: unknown): string {
  const v = value === undefined ? null : value;
  // Typed arrays (poses, joint vectors) become plain arrays in the cell.
  const json = needsReplacer(v, 0) ? JSON.stringify(v, typedArraysAsArrays) : JSON.stringify(v);
  return json === undefined ? 'null' : json;
}

function errorReply(type: string, message: string): string {
  return 'e' + JSON.stringify({ type, message });
}

export interface BridgeOptions {
  registry: PrimitiveRegistry;
  /** Answer repeats of cacheable queries in the cell (default true; false: every call makes the hop). */
  queryCache?: boolean;
  countSimSteps?: () => number;
  extractImages?: ImageExtractor;
  /** The runtime's stop: records why, terminates the execution. */
  stopCell(cell: CellState, stop: CellStop): void;
}

export class PrimitiveBridge {
  private readonly primitives = new Map<string, Primitive>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private imageCounter = 0;
  cell: CellState | null = null;

  constructor(private readonly opts: BridgeOptions) {
    for (const spec of opts.registry.list()) {
      const p = opts.registry.get(spec.name);
      if (p) this.primitives.set(spec.name, p);
    }
  }

  specs(): PrimitiveSpec[] {
    return [...this.primitives.values()].map((p) => p.spec);
  }

  private steps(): number {
    return this.opts.countSimSteps ? this.opts.countSimSteps() : 0;
  }

  /**
   * Records the calls the cell answered from its query cache since it last reported: `ids`, the
   * answers' ids joined by commas. Unknown ids (never expected) are skipped.
   */
  recordRepeats(cell: CellState, ids: unknown): void {
    if (typeof ids !== 'string' || ids === '') return;
    const list = ids.split(',', MAX_REPEATS_PER_REPORT + 1);
    for (const id of list.slice(0, MAX_REPEATS_PER_REPORT)) {
      const a = cell.answers.get(Number(id));
      if (!a) continue;
      const record: PrimitiveCallRecord = { name: a.primitive.spec.name, args: a.named, outcome: 'ok', simSteps: 0, wallMs: 0 };
      cell.calls.push(record);
      cell.hooks.onPrimitiveCall?.(record);
      a.primitive.recordRepeat?.(a.named, a.value);
    }
  }

  /** Called (through a Reference) by every `robo.*` wrapper in the cell, with the repeats answered since its last call. */
  async handle(name: unknown, argsJson: unknown, repeats?: unknown): Promise<string> {
    const cell = this.cell;
    if (!cell) return errorReply('Error', 'robo calls are only possible while a cell runs');
    // The repeats came before this call, whatever becomes of it.
    this.recordRepeats(cell, repeats);
    if (cell.stop) return STOP_REPLY;
    if (typeof name !== 'string' || typeof argsJson !== 'string') return errorReply('Error', 'malformed robo call');
    const primitive = this.primitives.get(name);
    if (!primitive) return errorReply('PrimitiveError', `robo.${name} is not a primitive`);
    const cacheable = this.opts.queryCache !== false && primitive.spec.cacheable === true;
    // Anything else may change the world: the cell side has forgotten its answers too.
    if (!cacheable) cell.answers.clear();
    const elapsedMs = performance.now() - cell.startedAt;
    if (elapsedMs >= cell.budget.wallMs) {
      this.opts.stopCell(cell, { reason: 'wall-budget', message: `cell stopped: wall-time budget of ${cell.budget.wallMs} ms used up (at robo.${name})` });
      return STOP_REPLY;
    }
    if (cell.simSteps >= cell.budget.simSteps) {
      this.opts.stopCell(cell, { reason: 'step-budget', message: `cell stopped: sim-step budget of ${cell.budget.simSteps} steps used up (${cell.simSteps} used; at robo.${name})` });
      return STOP_REPLY;
    }
    const record: PrimitiveCallRecord = { name, args: {}, outcome: 'ok', simSteps: 0, wallMs: 0 };
    const t0 = performance.now();
    const steps0 = this.steps();
    const finish = (outcome: PrimitiveCallRecord['outcome'], error?: string) => {
      record.outcome = outcome;
      if (error !== undefined) record.error = error;
      record.wallMs = performance.now() - t0;
      record.simSteps = Math.max(0, this.steps() - steps0);
      cell.simSteps += record.simSteps;
      cell.calls.push(record);
      cell.hooks.onPrimitiveCall?.(record);
    };
    let named: NamedArgs;
    try {
      if (argsJson.length > MAX_ARGS_JSON_CHARS) throw new PrimitiveError(`robo.${name}: arguments are ${argsJson.length} characters of JSON; the limit is ${MAX_ARGS_JSON_CHARS}`);
      const args: unknown = JSON.parse(argsJson, (k, v: unknown) => (k === '__proto__' ? undefined : v));
      if (!Array.isArray(args)) throw new PrimitiveError(`robo.${name}: malformed arguments`);
      named = toNamedArgs(primitive.spec, args);
      record.args = named;
    } catch (err) {
      finish('error', (err as Error).message);
      return errorReply('PrimitiveError', (err as Error).message);
    }
    let invocation: Promise<unknown>;
    try {
      invocation = primitive.invoke(named);
    } catch (err) {
      invocation = Promise.reject(err);
    }
    type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };
    const settled: Promise<Settled> = invocation.then(
      (value) => ({ ok: true, value }),
      (error: unknown) => ({ ok: false, error }),
    );
    this.inFlight.add(settled);
    // Resolves with the primitive's outcome, or with null as soon as the cell is stopped.
    const raced = await new Promise<Settled | null>((resolve) => {
      const release = () => resolve(null);
      cell.waiting.add(release);
      void settled.then((s) => {
        this.inFlight.delete(settled);
        cell.waiting.delete(release);
        resolve(s);
      });
    });
    if (raced === null) {
      // Interrupted or stopped while the primitive ran; it finishes in the background and the
      // runtime waits for it before the cell's result is final.
      void settled.then((s) => finish(s.ok ? 'stopped' : isEpisodeFinished(s.error) ? 'finished' : 'error', s.ok ? undefined : errorMessage(s.error)));
      return STOP_REPLY;
    }
    if (!raced.ok) {
      if (isEpisodeFinished(raced.error)) {
        finish('finished', errorMessage(raced.error));
        this.opts.stopCell(cell, { reason: 'episode-finished', message: errorMessage(raced.error) || 'the episode finished' });
        return STOP_REPLY;
      }
      finish('error', errorMessage(raced.error));
      const type = raced.error instanceof PrimitiveError || (raced.error as Error | null)?.name === 'PrimitiveError' ? 'PrimitiveError' : 'Error';
      return errorReply(type, errorMessage(raced.error));
    }
    finish('ok');
    try {
      const extractor = this.opts.extractImages ?? defaultImageExtractor;
      const { images, forCell } = extractor(name, raced.value, () => `img-${++this.imageCounter}`);
      for (const img of images) {
        cell.images.push(img);
        cell.hooks.onImage?.(img);
      }
      const json = toJsonForCell(forCell);
      if (cacheable && images.length === 0 && cell.answers.size < MAX_CACHED_ANSWERS) {
        const id = ++cell.answerSeq;
        cell.answers.set(id, { primitive, named, value: raced.value });
        return `c${id}:${json}`;
      }
      return 'v' + json;
    } catch (err) {
      return errorReply('Error', `robo.${name}: its result could not be passed to the cell: ${errorMessage(err)}`);
    }
  }

  /** Waits for primitives still running after their cell was stopped (the sim stays consistent). */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }
}

export function isEpisodeFinished(err: unknown): boolean {
  return err instanceof EpisodeFinished || (err instanceof Error && err.name === 'EpisodeFinished');
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
