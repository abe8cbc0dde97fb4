import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ENGINE_VERSION, PROTOCOL_VERSION } from '../../src-shared/version';
import { registerCellHandlers } from './cells/handlers';
import { openEpisodeCellWorld } from './cells/episodeWorld';
import { rendererDir } from './paths';
import type { Handlers } from './server/rpc';
import { startEngineServer, type EngineServer } from './server/server';

export interface EngineOptions {
  port?: number;
  token?: string;
  staticDir?: string | null;
  extraOrigins?: string[];
}

export interface Engine {
  server: EngineServer;
  close(): Promise<void>;
}

/** Builds every service the engine hosts and wires them to the protocol. */
export async function startEngine(opts: EngineOptions = {}): Promise<Engine> {
  const started = Date.now();
  const staticDir = opts.staticDir === undefined ? (existsSync(join(rendererDir(), 'index.html')) ? rendererDir() : null) : opts.staticDir;
  // Hand-run cell sessions (`cell/*`): each a task instance's world with its own sandbox.
  const cells = registerCellHandlers({ openWorld: (instance) => openEpisodeCellWorld(instance, { render: true }) });
  const handlers: Handlers = {
    'engine/ping': ({ payload }) => ({ payload, serverTimeMs: Date.now() }),
    'engine/info': () => ({
      engineVersion: ENGINE_VERSION,
      protocolVersion: PROTOCOL_VERSION,
      nodeVersion: process.version,
      platform: `${process.platform}-${process.arch}`,
      uptimeSec: (Date.now() - started) / 1000,
      rssBytes: process.memoryUsage().rss,
      clients: server.clientCount(),
    }),
    ...cells.handlers,
  };
  const server = await startEngineServer({ port: opts.port, token: opts.token, staticDir, extraOrigins: opts.extraOrigins, handlers, capabilities: [] });
  return {
    server,
    async close() {
      await cells.closeAll();
      await server.close();
    },
  };
}
