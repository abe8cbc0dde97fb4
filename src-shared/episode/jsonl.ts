/**
 * The one reading of events.jsonl, for an episode folder and an imported export alike: every
 * line parsed and checked against the schema, every bad line named by number and reason.
 */
import { EpisodeFormatError } from './migrate';
import { EpisodeEvent } from './schema';

export interface EventLineProblem {
  /** 1-based, as an editor shows it. */
  line: number;
  reason: string;
}

/** Lines of an events file that are not events; the message names the first few. */
export class EventLinesError extends EpisodeFormatError {
  override name = 'EventLinesError';
  constructor(
    readonly where: string,
    readonly problems: EventLineProblem[],
    /** The events of the lines that did parse, in order: what can still be shown of the episode. */
    readonly readable: EpisodeEvent[] = [],
  ) {
    const shown = problems.slice(0, 3).map((p, i) => `${i === 0 ? '' : 'line '}${p.line}: ${p.reason}`);
    const more = problems.length > 3 ? ` (and ${problems.length - 3} more bad lines)` : '';
    super(`${where} line ${shown.join('; ')}${more}`);
  }
}

export interface ParsedEventLines {
  events: EpisodeEvent[];
  /** The last line was cut short (a crash mid-write) and was left out. */
  truncatedTail: boolean;
  /** The event lines exactly as written, each ending in a newline (blank lines and a cut-off tail left out). */
  eventText: string;
}

/** Parser messages can be long and quote the input: a reason stays one readable line. */
const MAX_REASON_CHARS = 200;

/**
 * Parses an events file's text. The writer ends every line with a newline, so a last line
 * without one that is not JSON is the line a killed process was writing: it is left out and
 * reported as `truncatedTail`. Any other bad line is an error naming every bad line, because a
 * replay or a rebuilt context past a missing event would be wrong. Blank lines carry nothing and
 * are skipped.
 */
export function parseEventLines(text: string, where = 'events.jsonl'): ParsedEventLines {
  const lines = text.split('\n');
  const endsClean = text.length === 0 || text.endsWith('\n');
  if (endsClean) lines.pop();
  const events: EpisodeEvent[] = [];
  const kept: string[] = [];
  const problems: EventLineProblem[] = [];
  let truncatedTail = false;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    let raw: unknown;
    try {
      raw = JSON.parse(lines[i]);
    } catch (err) {
      if (i === lines.length - 1 && !endsClean) {
        truncatedTail = true;
        break;
      }
      problems.push({ line: i + 1, reason: notJson(err) });
      continue;
    }
    const parsed = EpisodeEvent.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue.path.join('.') || '(root)';
      // The schema's own message lists all nine event types: the reader needs only to know it is none of them.
      const reason = issue.code === 'invalid_union' && where === 'type' ? 'not a known event type' : issue.message;
      problems.push({ line: i + 1, reason: clip(`${where}: ${reason}`) });
      continue;
    }
    events.push(parsed.data);
    kept.push(lines[i] + '\n');
  }
  if (problems.length) throw new EventLinesError(where, problems, events);
  return { events, truncatedTail, eventText: kept.join('') };
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
