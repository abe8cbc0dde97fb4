/**
 * The `cell/*` protocol: hand-run cell sessions, each a task instance's world with its own sandbox.
 * `registerCellHandlers` returns the handlers to spread into the engine's handler map and a
 * `closeAll` for shutdown.
 */
import type { CellImageInfo, CellRunResult, ParamsOf } from '../../../src-shared/protocol';
import type { CellLanguage, InstanceRef } from '../../../src-shared/episode';
import type { PrimitiveRegistry } from '../primitives/types';
import type { ClientContext, Handler } from '../rpc';
import { RpcError } from '../rpc';
import { CellBusyError, type CellRuntime } from './cellRuntime';
import { createCellRuntime } from './factory';
import type { CellImage, CellResult, ImageExtractor } from './types';

/** What a session runs against; `createEpisodeWorld` plus the camera hook in the engine. */
export interface CellSessionWorld {
  registry: PrimitiveRegistry;
  countSimSteps(): number;
  judge?(): { success: boolean; reason: string };
  extractImages?: ImageExtractor;
  dispose(): void;
}

export interface CellHandlerOptions {
  openWorld(instance: InstanceRef): Promise<CellSessionWorld>;
  /** Idle sessions beyond this many are closed, least recently used first. Default 4. */
  maxSessions?: number;
  memoryLimitMb?: number;
}

interface Session {
  id: string;
  key: string;
  world: CellSessionWorld;
  language: CellLanguage;
  runtime: CellRuntime;
  lastUsed: number;
}

export interface CellHandlers {
  handlers: { 'cell/run': Handler<'cell/run'>; 'cell/interrupt': Handler<'cell/interrupt'>; 'cell/close': Handler<'cell/close'> };
  closeAll(): Promise<void>;
}

const instanceKey = (i: InstanceRef) => `${i.taskId}/${i.variant}/${i.seed}`;

export function imageInfo(img: CellImage): CellImageInfo {
  return {
    id: img.id,
    primitive: img.primitive,
    mimeType: img.mimeType,
    ...(img.width !== undefined ? { width: Math.round(img.width) } : {}),
    ...(img.height !== undefined ? { height: Math.round(img.height) } : {}),
    ...(img.caption !== undefined ? { caption: img.caption } : {}),
    ...(img.bytes ? { dataUrl: `data:${img.mimeType};base64,${Buffer.from(img.bytes).toString('base64')}` } : {}),
  };
}

export function toRunResult(sessionId: string, r: CellResult, verdict: CellRunResult['verdict']): CellRunResult {
  return {
    sessionId,
    index: r.index,
    ok: r.ok,
    stdout: r.stdout,
    stdoutTruncatedChars: r.stdoutTruncatedChars,
    ...(r.value !== undefined ? { value: r.value } : {}),
    ...(r.error ? { error: r.error } : {}),
    ...(r.stop ? { stop: r.stop } : {}),
    images: r.images.map(imageInfo),
    audit: r.audit,
    refused: r.refused,
    primitiveCalls: r.primitiveCalls,
    simSteps: r.simSteps,
    wallMs: r.wallMs,
    namespaceLost: r.namespaceLost,
    verdict,
  };
}

export function registerCellHandlers(opts: CellHandlerOptions): CellHandlers {
  const sessions = new Map<string, Session>();
  const opening = new Map<string, Promise<Session>>();

  async function closeSession(s: Session): Promise<void> {
    sessions.delete(s.id);
    await s.runtime.dispose();
    s.world.dispose();
  }

  async function evictIdle(): Promise<void> {
    const max = opts.maxSessions ?? 4;
    const idle = [...sessions.values()].filter((s) => !s.runtime.running).sort((a, b) => a.lastUsed - b.lastUsed);
    while (sessions.size > max && idle.length > 0) await closeSession(idle.shift() as Session);
  }

  async function sessionFor(id: string, instance: InstanceRef | undefined, language: CellLanguage | undefined): Promise<Session> {
    const existing = sessions.get(id);
    if (existing && language && existing.language !== language) throw new RpcError('invalid-argument', `cell session "${id}" runs ${existing.language}; open a new session for ${language}`);
    if (existing && (!instance || existing.key === instanceKey(instance))) return existing;
    if (!instance) throw new RpcError('not-found', `no cell session "${id}": give the task instance with its first cell`);
    if (existing) {
      if (existing.runtime.running) throw new RpcError('busy', `a cell is still running in session "${id}"`);
      await closeSession(existing);
    }
    const pending = opening.get(id);
    if (pending) return pending;
    const open = (async () => {
      let world: CellSessionWorld;
      try {
        world = await opts.openWorld(instance);
      } catch (e) {
        throw new RpcError('invalid-argument', e instanceof Error ? e.message : String(e));
      }
      const runtime = await createCellRuntime({ language: language ?? 'javascript', registry: world.registry, countSimSteps: () => world.countSimSteps(), extractImages: world.extractImages, memoryLimitMb: opts.memoryLimitMb });
      const s: Session = { id, key: instanceKey(instance), world, language: language ?? 'javascript', runtime, lastUsed: Date.now() };
      sessions.set(id, s);
      return s;
    })();
    opening.set(id, open);
    try {
      return await open;
    } finally {
      opening.delete(id);
    }
  }

  const run = async (params: ParamsOf<'cell/run'>, ctx: ClientContext): Promise<CellRunResult> => {
    const s = await sessionFor(params.sessionId, params.instance, params.language);
    s.lastUsed = Date.now();
    await evictIdle();
    if (s.runtime.running) throw new RpcError('busy', `a cell is still running in session "${s.id}"`);
    const index = s.runtime.cellCount + 1;
    const onAbort = () => s.runtime.interrupt('the client disconnected');
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    ctx.emit({ type: 'cell/started', sessionId: s.id, index });
    let r: CellResult;
    try {
      r = await s.runtime.run(params.code, {
        budget: params.budget,
        auditMode: params.audit,
        hooks: {
          onOutput: (line) => ctx.emit({ type: 'cell/output', sessionId: s.id, index, level: line.level, text: line.text }),
          onImage: (img) => ctx.emit({ type: 'cell/image', sessionId: s.id, index, image: imageInfo(img) }),
        },
      });
    } catch (e) {
      if (e instanceof CellBusyError) throw new RpcError('busy', e.message);
      throw e;
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
    }
    const result = toRunResult(s.id, r, s.world.judge ? s.world.judge() : null);
    ctx.emit({ type: 'cell/ended', result });
    return result;
  };

  return {
    handlers: {
      'cell/run': run,
      'cell/interrupt': ({ sessionId }) => ({ interrupted: sessions.get(sessionId)?.runtime.interrupt() ?? false }),
      'cell/close': async ({ sessionId }) => {
        const s = sessions.get(sessionId);
        if (!s) return { closed: false };
        await closeSession(s);
        return { closed: true };
      },
    },
    async closeAll() {
      await Promise.all([...sessions.values()].map((s) => closeSession(s)));
    },
  };
}
