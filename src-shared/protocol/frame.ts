import { z } from 'zod';

/** Largest text frame either side accepts; the socket itself is capped at the same size. */
export const MAX_FRAME_BYTES = 4 * 1024 * 1024;

export const RequestId = z.number().int().nonnegative();
export type RequestId = z.infer<typeof RequestId>;

export const ErrorCode = z.enum([
  'bad-json',
  'bad-frame',
  'unknown-type',
  'frame-too-large',
  'rate-limited',
  'not-found',
  'busy',
  'invalid-argument',
  'internal',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/**
 * One entry per request: its params and its result. Domain files (sim, cells, agent, episodes)
 * register their own maps; `index.ts` merges them into the unions both sides parse.
 */
export interface MethodSpec<P extends z.ZodObject = z.ZodObject, R extends z.ZodType = z.ZodType> {
  params: P;
  result: R;
}

export function method<P extends z.ZodObject, R extends z.ZodType>(params: P, result: R): MethodSpec<P, R> {
  return { params, result };
}
