import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { decodePoseFrame, encodePoseFrame } from '../../../src-shared/protocol';
import { startEngineServer, tokensEqual, type EngineServer } from './server';

let server: EngineServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('engine server', () => {
  it('compares tokens in constant time and by value', () => {
    expect(tokensEqual('abc', 'abc')).toBe(true);
    expect(tokensEqual('abc', 'abd')).toBe(false);
    expect(tokensEqual('abc', 'abcd')).toBe(false);
  });

  it('listens on 127.0.0.1 with a random token by default', async () => {
    server = await startEngineServer();
    const other = await startEngineServer();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(server.token.length).toBeGreaterThanOrEqual(24);
    expect(server.token).not.toBe(other.token);
    await other.close();
  });

  it('sends a slow client only the latest pose frame (backpressure)', async () => {
    server = await startEngineServer({ token: 't', maxBufferedBytes: 64 * 1024 });
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=t`);
    const seqs: number[] = [];
    ws.on('message', (data, isBinary) => {
      if (!isBinary) return;
      const b = data as Buffer;
      seqs.push(decodePoseFrame(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer)!.seq);
    });
    await new Promise((r) => ws.once('open', r));
    // A client that stops reading: the kernel buffers fill, then the engine must hold frames back.
    const socket = (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socket.pause();
    const nbody = 1000;
    const poses = new Float32Array(nbody * 7);
    const n = 600;
    for (let i = 1; i <= n; i++) {
      server.broadcastPoses(encodePoseFrame(i, i / 1000, 0, poses, nbody));
      if (i % 20 === 0) await new Promise((r) => setTimeout(r, 2));
    }
    socket.resume();
    await new Promise((r) => setTimeout(r, 1000));
    expect(seqs.at(-1)).toBe(n);
    expect(seqs.length).toBeLessThan(n);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1]);
    ws.close();
  });

  describe('requests an attacker can send without the token', () => {
    /** One raw request; resolves with the status line (or '' when the socket closed without one). */
    const raw = (port: number, text: string) =>
      new Promise<string>((resolve) => {
        const sock = connect(port, '127.0.0.1', () => sock.write(text));
        let got = '';
        sock.on('data', (d) => (got += d.toString('latin1')));
        sock.on('error', () => resolve(got.split('\r\n')[0]));
        sock.on('close', () => resolve(got.split('\r\n')[0]));
        setTimeout(() => sock.destroy(), 2000);
      });
    const start = async () => {
      const ui = mkdtempSync(join(tmpdir(), 'rc-ui-'));
      writeFileSync(join(ui, 'index.html'), '<!doctype html><title>ui</title>');
      const files = mkdtempSync(join(tmpdir(), 'rc-files-'));
      mkdirSync(join(files, 'ep'));
      writeFileSync(join(files, 'ep', 'a.png'), 'png');
      server = await startEngineServer({
        token: 't',
        staticDir: ui,
        privateFiles: (p) => (p === '/episodes/ep/files/a.png' ? join(files, 'ep', 'a.png') : null),
        handlers: { 'engine/ping': ({ payload }) => ({ payload, serverTimeMs: Date.now() }) },
      });
      return server;
    };
    const ping = async (port: number) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=t`);
      const reply = await new Promise<string>((resolve, reject) => {
        ws.on('message', (d) => {
          const f = JSON.parse(d.toString()) as { type: string; result?: { payload: string } };
          if (f.type === 'server/hello') ws.send(JSON.stringify({ type: 'engine/ping', id: 1, payload: 'alive' }));
          if (f.type === 'reply') resolve(f.result!.payload);
        });
        ws.on('error', reject);
      });
      ws.close();
      return reply;
    };

    it('GET /% (a malformed escape) is a 400, and the engine lives on', async () => {
      const s = await start();
      expect(await fetch(`http://127.0.0.1:${s.port}/%`).then((r) => r.status)).toBe(400);
      expect(await fetch(`http://127.0.0.1:${s.port}/episodes/%E0%A4%A?token=t`).then((r) => r.status)).toBe(400);
      expect(await ping(s.port)).toBe('alive');
    });

    it('a raw GET // is a 400, and the engine lives on', async () => {
      const s = await start();
      expect(await raw(s.port, 'GET // HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')).toBe('HTTP/1.1 400 Bad Request');
      expect(await raw(s.port, 'GET //evil.example/x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')).toBe('HTTP/1.1 400 Bad Request');
      expect(await ping(s.port)).toBe('alive');
    });

    it('a WebSocket upgrade to // is a 400, and the engine lives on', async () => {
      const s = await start();
      const upgrade = (target: string) =>
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`;
      expect(await raw(s.port, upgrade('//'))).toBe('HTTP/1.1 400 Bad Request');
      expect(await raw(s.port, upgrade('//ws?token=t'))).toBe('HTTP/1.1 400 Bad Request');
      expect(await raw(s.port, upgrade('/ws?token=wrong'))).toBe('HTTP/1.1 401 Unauthorized');
      expect(await ping(s.port)).toBe('alive');
    });

    it('episode files are served sandboxed, with no referrer', async () => {
      const s = await start();
      const res = await fetch(`http://127.0.0.1:${s.port}/episodes/ep/files/a.png?token=t`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toMatch(/^sandbox\b/);
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const missing = await fetch(`http://127.0.0.1:${s.port}/episodes/ep/files/b.png?token=t`);
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-security-policy')).toMatch(/^sandbox\b/);
      // The renderer itself keeps its own policy (not sandboxed: it must run).
      const page = await fetch(`http://127.0.0.1:${s.port}/`);
      expect(page.headers.get('content-security-policy')).not.toMatch(/sandbox/);
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    });
  });
});
