/**
 * Hand-run cells: the studio opens a cell session on a task instance (a fresh episode world with
 * its own sandbox namespace) and runs cells in it, watching them live. A cell's reply is its full
 * result; the events stream what it prints and shows while it runs.
 */
import { z } from 'zod';
import { CellLanguage, InstanceRef } from '../episode';
import { method } from './frame';

const SessionId = z.string().min(1).max(200);

export const CellBudgetParams = z.object({
  wallMs: z.number().positive().max(600_000).optional(),
  simSteps: z.number().int().positive().max(10_000_000).optional(),
});
export type CellBudgetParams = z.infer<typeof CellBudgetParams>;

export const CellAuditFlag = z.object({ rule: z.string(), message: z.string(), line: z.number().int(), column: z.number().int() });
export type CellAuditFlag = z.infer<typeof CellAuditFlag>;

export const CellImageInfo = z.object({
  id: z.string(),
  primitive: z.string(),
  mimeType: z.string(),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
  caption: z.string().optional(),
  /** `data:` URL of the image; absent when the primitive only gave a path. */
  dataUrl: z.string().optional(),
});
export type CellImageInfo = z.infer<typeof CellImageInfo>;

export const CellRunResult = z.object({
  sessionId: SessionId,
  index: z.number().int().positive(),
  ok: z.boolean(),
  stdout: z.string(),
  stdoutTruncatedChars: z.number().int().nonnegative(),
  value: z.string().optional(),
  error: z
    .object({ type: z.string(), message: z.string(), line: z.number().int().optional(), column: z.number().int().optional(), stack: z.string().optional() })
    .optional(),
  stop: z.object({ reason: z.enum(['episode-finished', 'wall-budget', 'step-budget', 'interrupted', 'memory-limit', 'refused']), message: z.string() }).optional(),
  images: z.array(CellImageInfo),
  audit: z.array(CellAuditFlag),
  refused: z.boolean(),
  primitiveCalls: z.array(
    z.object({ name: z.string(), args: z.record(z.string(), z.unknown()), outcome: z.enum(['ok', 'error', 'finished', 'stopped']), error: z.string().optional(), simSteps: z.number(), wallMs: z.number() }),
  ),
  simSteps: z.number(),
  wallMs: z.number(),
  namespaceLost: z.boolean(),
  /** The task's judge after the cell. */
  verdict: z.object({ success: z.boolean(), reason: z.string() }).nullable(),
});
export type CellRunResult = z.infer<typeof CellRunResult>;

export const cellMethods = {
  /**
   * Runs one cell in a session. The first cell of a session names the task instance; later cells
   * may omit it (giving another instance re-opens the session on it, with a fresh namespace).
   */
  'cell/run': method(
    z.object({
      sessionId: SessionId,
      instance: InstanceRef.optional(),
      code: z.string().max(200_000),
      budget: CellBudgetParams.optional(),
      audit: z.enum(['refuse', 'report']).optional(),
      /** The session's cell language, fixed by its first cell. Default 'javascript'. */
      language: CellLanguage.optional(),
    }),
    CellRunResult,
  ),
  /** Stops the session's running cell (uncatchably for the cell). */
  'cell/interrupt': method(z.object({ sessionId: SessionId }), z.object({ interrupted: z.boolean() })),
  /** Disposes the session's sandbox and world. */
  'cell/close': method(z.object({ sessionId: SessionId }), z.object({ closed: z.boolean() })),
};

export const CellStarted = z.object({ type: z.literal('cell/started'), sessionId: SessionId, index: z.number().int().positive() });
export const CellOutput = z.object({ type: z.literal('cell/output'), sessionId: SessionId, index: z.number().int().positive(), level: z.enum(['log', 'info', 'warn', 'error']), text: z.string() });
export const CellImageShown = z.object({ type: z.literal('cell/image'), sessionId: SessionId, index: z.number().int().positive(), image: CellImageInfo });
export const CellEnded = z.object({ type: z.literal('cell/ended'), result: CellRunResult });

export const cellEvents = [CellStarted, CellOutput, CellImageShown, CellEnded] as const;
