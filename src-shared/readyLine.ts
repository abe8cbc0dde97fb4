/**
 * The one machine-readable line `robocell serve` prints on stdout once it listens. The engine
 * writes it with `formatReadyLine` and the Electron shell (and the tests' and bench's engine
 * launchers) read it with `parseReadyLine`: one definition on both sides of the pipe.
 */
import { z } from 'zod';

export const ReadyLine = z.object({
  ready: z.object({ port: z.number().int().min(1).max(65535), pid: z.number().int().positive() }),
});
export type ReadyLine = z.infer<typeof ReadyLine>;
export type EngineReady = ReadyLine['ready'];

/** The line, newline included. Parsing first means the engine can never print a line its shell refuses. */
export function formatReadyLine(ready: EngineReady): string {
  return `${JSON.stringify(ReadyLine.parse({ ready }))}\n`;
}

export type ReadLine =
  | { kind: 'ready'; ready: EngineReady }
  /** Not a ready line: a log line, a warning from Node, a JSON object without `ready`. */
  | { kind: 'other' }
  /** A line that claims to be JSON (or a ready line) but is not a valid one. */
  | { kind: 'invalid'; message: string };

/** Classifies one stdout line (without its line break). */
export function parseReadyLine(raw: string): ReadLine {
  const line = raw.trim();
  if (!line.startsWith('{')) return { kind: 'other' };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { kind: 'invalid', message: `malformed JSON on the engine's stdout (${(err as Error).message}): ${line.slice(0, 200)}` };
  }
  if (typeof value !== 'object' || value === null || !('ready' in value)) return { kind: 'other' };
  const parsed = ReadyLine.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { kind: 'invalid', message: `the engine's ready line is invalid at ${issue.path.join('.') || '(root)'}: ${issue.message}: ${line.slice(0, 200)}` };
  }
  return { kind: 'ready', ready: parsed.data.ready };
}
