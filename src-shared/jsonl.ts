/**
 * The one reading of a JSONL file (episode events, an experiment's results, attempts and
 * sessions): every line parsed and checked against a schema, every bad line named by number and
 * reason. The writers end every line with a newline, so a last line without one that is not JSON
 * is the line a killed process was writing: it is left out and reported as `truncatedTail`. Blank
 * lines carry nothing and are skipped. What a bad line means (refuse the file, or show what can be
 * read) is the caller's to decide.
 */
import type { z } from 'zod';

export interface JsonLineProblem {
  /** 1-based, as an editor shows it. */
  line: number;
  reason: string;
}

export interface ParsedJsonLines<T> {
  /** The lines that parsed, in order. */
  items: T[];
  /** Each parsed line exactly as written, with its newline (the same order as `items`). */
  lines: string[];
  problems: JsonLineProblem[];
  /** The last line was cut short (a crash mid-write) and was left out. */
  truncatedTail: boolean;
}

export interface JsonLinesOptions {
  /** What a line holds, for the reason given when a tagged union knows none of its `type`s ("event"). */
  kind?: string;
}

/** Parser messages can be long and quote the input: a reason stays one readable line. */
const MAX_REASON_CHARS = 200;

export function parseJsonLines<T>(text: string, schema: z.ZodType<T>, o: JsonLinesOptions = {}): ParsedJsonLines<T> {
  const raw = text.split('\n');
  const endsClean = text.length === 0 || text.endsWith('\n');
  if (endsClean) raw.pop();
  const out: ParsedJsonLines<T> = { items: [], lines: [], problems: [], truncatedTail: false };
  for (let i = 0; i < raw.length; i++) {
    if (raw[i].trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw[i]);
    } catch (err) {
      if (i === raw.length - 1 && !endsClean) {
        out.truncatedTail = true;
        break;
      }
      out.problems.push({ line: i + 1, reason: notJson(err) });
      continue;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue.path.join('.') || '(root)';
      // A union's own message lists every member's type: the reader needs only to know it is none of them.
      const reason = issue.code === 'invalid_union' && where === 'type' ? `not a known ${o.kind ?? 'record'} type` : issue.message;
      out.problems.push({ line: i + 1, reason: clip(`${where}: ${reason}`) });
      continue;
    }
    out.items.push(parsed.data);
    out.lines.push(raw[i] + '\n');
  }
  return out;
}

/** "line 3: not valid JSON; line 7: t: …": the first few problems, and how many more there are. */
export function describeLineProblems(problems: readonly JsonLineProblem[]): string {
  const shown = problems.slice(0, 3).map((p) => `line ${p.line}: ${p.reason}`);
  const more = problems.length > 3 ? ` (and ${problems.length - 3} more bad lines)` : '';
  return `${shown.join('; ')}${more}`;
}

/**
 * The parser's message quotes the line, which may be anything (an import of someone else's file):
 * the reason keeps only where the line broke.
 */
function notJson(err: unknown): string {
  const at = /position (\d+)/.exec(err instanceof Error ? err.message : '');
  return at ? `not valid JSON (at character ${Number(at[1]) + 1})` : 'not valid JSON';
}

function clip(s: string): string {
  return s.length > MAX_REASON_CHARS ? `${s.slice(0, MAX_REASON_CHARS - 1)}…` : s;
}
