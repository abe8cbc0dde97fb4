/**
 * A cell's result as the agent loop uses it, for every environment: the model-facing text (what
 * the cell printed, then its value, error or stop) and the recorded detail.
 */
import type { CellResult } from '../cells/types';
import type { CellOutcome, Observation } from './environment';

/** The model-facing text of a cell: what it printed, then its value, error or stop. */
export function cellText(r: CellResult): string {
  const parts: string[] = [];
  if (r.stdout) parts.push(r.stdout.replace(/\n$/, ''));
  if (r.stdoutTruncatedChars) parts.push(`[… ${r.stdoutTruncatedChars} more characters of output dropped]`);
  if (r.value !== undefined) parts.push(`=> ${r.value}`);
  if (r.error) parts.push(`Error: ${r.error.type}: ${r.error.message}${r.error.line ? ` (line ${r.error.line})` : ''}`);
  if (r.stop) parts.push(r.stop.reason === 'episode-finished' ? `[episode finished: ${r.stop.message}]` : `[stopped: ${r.stop.message}]`);
  if (r.namespaceLost) parts.push('[the cell namespace was reset: earlier variables are gone]');
  if (r.images.length) parts.push(`[images attached: ${r.images.map((i) => i.caption ?? i.id).join(', ')}]`);
  return parts.join('\n') || '(no output)';
}

/** The outcome of a cell; `images` are those the environment puts in front of the model. */
export function cellOutcome(r: CellResult, images: Observation[] = []): CellOutcome {
  return {
    ok: r.ok,
    text: cellText(r),
    images,
    detail: {
      stdout: r.stdout,
      ...(r.value !== undefined ? { value: r.value } : {}),
      ...(r.error ? { error: { type: r.error.type, message: r.error.message, ...(r.error.line ? { line: r.error.line } : {}) } } : {}),
      ...(r.stop ? { stop: { reason: r.stop.reason, message: r.stop.message } } : {}),
      audit: r.audit.map((a) => ({ rule: a.rule, message: a.message, line: a.line })),
      refused: r.refused,
      namespaceLost: r.namespaceLost,
    },
  };
}
