/**
 * The one reading of events.jsonl, for an episode folder and an imported export alike, over the
 * shared JSONL reader (src-shared/jsonl.ts): every line checked against the event schema, every
 * bad line named by number and reason.
 */
import { describeLineProblems, parseJsonLines, type JsonLineProblem } from '../jsonl';
import { EpisodeFormatError } from './migrate';
import { EpisodeEvent } from './schema';

export type EventLineProblem = JsonLineProblem;

/** Lines of an events file that are not events; the message names the first few. */
export class EventLinesError extends EpisodeFormatError {
  override name = 'EventLinesError';
  constructor(
    readonly where: string,
    readonly problems: EventLineProblem[],
    /** The events of the lines that did parse, in order: what can still be shown of the episode. */
    readonly readable: EpisodeEvent[] = [],
  ) {
    super(`${where} ${describeLineProblems(problems)}`);
  }
}

export interface ParsedEventLines {
  events: EpisodeEvent[];
  /** The last line was cut short (a crash mid-write) and was left out. */
  truncatedTail: boolean;
  /** The event lines exactly as written, each ending in a newline (blank lines and a cut-off tail left out). */
  eventText: string;
}

/**
 * Parses an events file's text. The writer ends every line with a newline, so a last line
 * without one that is not JSON is the line a killed process was writing: it is left out and
 * reported as `truncatedTail`. Any other bad line is an error naming every bad line, because a
 * replay or a rebuilt context past a missing event would be wrong. Blank lines carry nothing and
 * are skipped.
 */
export function parseEventLines(text: string, where = 'events.jsonl'): ParsedEventLines {
  const parsed = parseJsonLines(text, EpisodeEvent, { kind: 'event' });
  if (parsed.problems.length) throw new EventLinesError(where, parsed.problems, parsed.items);
  return { events: parsed.items, truncatedTail: parsed.truncatedTail, eventText: parsed.lines.join('') };
}
