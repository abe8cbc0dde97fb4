import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FRAME_BYTES, ServerFrame, type ServerFrame as Frame } from '../../src-shared/protocol';
import { PROTOCOL_VERSION } from '../../src-shared/version';
import { startEngineProcess, type RunningEngine } from '../helpers/engine';

/** A raw socket that collects every frame, parsed with the same schema the UI uses. */
async function rawClient(engine: RunningEngine) {
  const ws = new WebSocket(`${engine.wsUrl}?token=${engine.token}`);
  const frames: Frame[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (data) => {
    const parsed = ServerFrame.safeParse(JSON.parse(data.toString()));
    if (!parsed.success) throw new Error(`engine sent an invalid frame: ${data.toString()}`);
    frames.push(parsed.data);
    waiters.splice(0).forEach((w) => w());
  });
  await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
  const next = async (pred: (f: Frame) => boolean, timeoutMs = 5000): Promise<Frame> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = frames.findIndex(pred);
      if (i >= 0) return frames.splice(i, 1)[0];
      if (Date.now() > deadline) throw new Error('timed out waiting for a frame');
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 50);
      });
    }
  };
  return { ws, frames, next };
}

describe('engine protocol under bad input', () => {
  let engine: RunningEngine;
  beforeAll(async () => {
    engine = await startEngineProcess();
  });
  afterAll(async () => {
    await engine?.stop();
  });

  it('greets with server/hello', async () => {
    const c = await rawClient(engine);
    const hello = await c.next((f) => f.type === 'server/hello');
    expect(hello).toMatchObject({ type: 'server/hello', protocolVersion: PROTOCOL_VERSION });
    c.ws.close();
  });

  it('answers malformed frames with typed errors and stays usable', async () => {
    const c = await rawClient(engine);
    await c.next((f) => f.type === 'server/hello');
    const ping = async (id: number) => {
      c.ws.send(JSON.stringify({ type: 'engine/ping', id, payload: `p${id}` }));
      return c.next((f) => f.type === 'reply' && f.id === id);
    };

    c.ws.send('{not json');
    expect(await c.next((f) => f.type === 'error')).toMatchObject({ code: 'bad-json', id: null });
    expect(await ping(1)).toMatchObject({ result: { payload: 'p1' } });

    c.ws.send(JSON.stringify({ type: 'robot/teleport', id: 7 }));
    expect(await c.next((f) => f.type === 'error')).toMatchObject({ code: 'unknown-type', id: 7 });

    c.ws.send(JSON.stringify({ type: 'engine/ping', id: 8, payload: 42 }));
    const wrong = await c.next((f) => f.type === 'error');
    expect(wrong).toMatchObject({ code: 'bad-frame', id: 8 });
    expect(wrong.type === 'error' && wrong.issues?.[0].path).toBe('payload');

    c.ws.send(JSON.stringify({ type: 'engine/ping', id: -3 }));
    expect(await c.next((f) => f.type === 'error')).toMatchObject({ code: 'bad-frame', id: null });

    c.ws.send(JSON.stringify([1, 2, 3]));
    expect(await c.next((f) => f.type === 'error')).toMatchObject({ code: 'unknown-type' });

    c.ws.send(JSON.stringify({ type: 'engine/ping', id: 9, payload: 'x'.repeat(MAX_FRAME_BYTES + 10) }));
    expect(await c.next((f) => f.type === 'error')).toMatchObject({ code: 'frame-too-large' });

    c.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await c.next((f) => f.type === 'error')).toMatchObject({ code: 'bad-frame' });

    expect(await ping(2)).toMatchObject({ result: { payload: 'p2' } });
    c.ws.close();
  });

  it('rate-limits a flood of requests with typed errors and recovers', async () => {
    const c = await rawClient(engine);
    await c.next((f) => f.type === 'server/hello');
    const n = 3000;
    for (let i = 0; i < n; i++) c.ws.send(JSON.stringify({ type: 'engine/ping', id: 1000 + i }));
    await new Promise((r) => setTimeout(r, 1500));
    const replies = c.frames.filter((f) => f.type === 'reply').length;
    const limited = c.frames.filter((f) => f.type === 'error' && f.code === 'rate-limited').length;
    expect(replies).toBeGreaterThan(0);
    expect(replies).toBeLessThan(n);
    expect(limited).toBeGreaterThan(0);
    c.frames.length = 0;
    await new Promise((r) => setTimeout(r, 2500));
    c.ws.send(JSON.stringify({ type: 'engine/info', id: 99999 }));
    const info = await c.next((f) => f.type === 'reply' && f.id === 99999);
    expect(info).toMatchObject({ result: { protocolVersion: PROTOCOL_VERSION } });
    c.ws.close();
  });

  it('shuts down cleanly on SIGINT, SIGTERM and when its parent stdin closes', async () => {
    for (const how of ['SIGINT', 'SIGTERM', 'stdin'] as const) {
      const e = await startEngineProcess();
      const exited = new Promise<number | null>((r) => e.child.once('exit', (code) => r(code)));
      if (how === 'stdin') e.child.stdin!.end();
      else e.child.kill(how);
      expect(await exited).toBe(0);
      expect(e.stderr()).toContain('shutting down');
    }
  });
});
