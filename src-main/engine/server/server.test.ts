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
});
