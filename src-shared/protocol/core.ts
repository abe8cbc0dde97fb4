import { z } from 'zod';
import { method } from './frame';

export const ServerHello = z.object({
  type: z.literal('server/hello'),
  protocolVersion: z.number().int(),
  engineVersion: z.string(),
  pid: z.number().int(),
});
export type ServerHello = z.infer<typeof ServerHello>;

export const EngineInfo = z.object({
  engineVersion: z.string(),
  protocolVersion: z.number().int(),
  nodeVersion: z.string(),
  platform: z.string(),
  uptimeSec: z.number(),
  rssBytes: z.number(),
  clients: z.number().int(),
});
export type EngineInfo = z.infer<typeof EngineInfo>;

export const coreMethods = {
  'engine/ping': method(z.object({ payload: z.string().max(1024).optional() }), z.object({ payload: z.string().optional(), serverTimeMs: z.number() })),
  'engine/info': method(z.object({}), EngineInfo),
};

export const coreEvents = [ServerHello] as const;
