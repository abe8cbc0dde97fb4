/**
 * Episode folders: `meta.json`, an append-only `events.jsonl` written with one synchronous write
 * per event (a killed process loses at most the line being written), `images/` and `snapshots/`.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EpisodeEvent, EpisodeFormatError, migrateMeta, type EpisodeEventInput, type EpisodeMeta, type Message, type ToolDef } from '../../../src-shared/episode';

export const EVENTS_FILE = 'events.jsonl';
export const META_FILE = 'meta.json';

export function defaultEpisodesDir(): string {
  return resolve(process.env.ROBOCELL_EPISODES_DIR ?? join(process.cwd(), '.robocell', 'episodes'));
}

export function newEpisodeId(meta: Pick<EpisodeMeta, 'instance' | 'arm'>, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const rand = Math.floor(Math.random() * 0xffffff).toString(16).padStart(6, '0');
  const safe = `${meta.instance.taskId}-${meta.instance.variant}`.replace(/[^A-Za-z0-9_.-]/g, '_');
  return `${stamp}-${safe}-s${meta.instance.seed}-${meta.arm}-${rand}`;
}

export class EpisodeWriter {
  private fd: number | null;
  private readonly started = Date.now();

  private constructor(
    readonly dir: string,
    readonly meta: EpisodeMeta,
  ) {
    this.fd = openSync(join(dir, EVENTS_FILE), 'a');
  }

  /** Creates `<root>/<meta.id>/` and writes meta.json. */
  static create(root: string, meta: EpisodeMeta): EpisodeWriter {
    const dir = join(root, meta.id);
    if (existsSync(dir)) throw new Error(`episode folder already exists: ${dir}`);
    mkdirSync(join(dir, 'images'), { recursive: true });
    mkdirSync(join(dir, 'snapshots'), { recursive: true });
    writeFileSync(join(dir, META_FILE), JSON.stringify(meta, null, 2) + '\n');
    return new EpisodeWriter(dir, meta);
  }

  elapsedMs(): number {
    return Date.now() - this.started;
  }

  /** Writes one event line (one write call, so a kill loses at most this line); returns it with its time. */
  append(event: EpisodeEventInput): EpisodeEvent {
    if (this.fd === null) throw new Error('episode writer is closed');
    const full = EpisodeEvent.parse({ ...event, t: this.elapsedMs() });
    writeSync(this.fd, JSON.stringify(full) + '\n');
    return full;
  }

  /** Writes images/<name> and returns the file name relative to the episode folder. */
  writeImage(name: string, bytes: Uint8Array): string {
    const rel = `images/${name}`;
    writeFileSync(join(this.dir, rel), bytes);
    return rel;
  }

  writeSnapshot(index: number, data: string): string {
    const rel = `snapshots/${String(index).padStart(4, '0')}.json`;
    writeFileSync(join(this.dir, rel), data);
    return rel;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

export interface LoadedEpisode {
  dir: string;
  meta: EpisodeMeta;
  events: EpisodeEvent[];
  /** True when the last line was cut short (a crash mid-write) and was dropped. */
  truncatedTail: boolean;
}

/** Loads an episode folder. A cut-off last line is dropped; any other bad line is an error naming it. */
export function loadEpisode(dir: string): LoadedEpisode {
  const metaPath = join(dir, META_FILE);
  if (!existsSync(metaPath)) throw new EpisodeFormatError(`${dir}: no ${META_FILE}; not an episode folder`);
  let rawMeta: unknown;
  try {
    rawMeta = JSON.parse(readFileSync(metaPath, 'utf8'));
  } catch (err) {
    throw new EpisodeFormatError(`${metaPath}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const meta = migrateMeta(rawMeta, metaPath);
  const eventsPath = join(dir, EVENTS_FILE);
  const text = existsSync(eventsPath) ? readFileSync(eventsPath, 'utf8') : '';
  const lines = text.split('\n');
  const endsClean = text.length === 0 || text.endsWith('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const events: EpisodeEvent[] = [];
  let truncatedTail = false;
  for (let i = 0; i < lines.length; i++) {
    const isLast = i === lines.length - 1;
    let raw: unknown;
    try {
      raw = JSON.parse(lines[i]);
    } catch (err) {
      if (isLast && !endsClean) {
        truncatedTail = true;
        break;
      }
      throw new EpisodeFormatError(`${eventsPath} line ${i + 1}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
    }
    const parsed = EpisodeEvent.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new EpisodeFormatError(`${eventsPath} line ${i + 1}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
    events.push(parsed.data);
  }
  return { dir, meta, events, truncatedTail };
}

/** The exact context of model call `call` (1-based): messages and tools as they were sent. */
export function rebuildContext(ep: Pick<LoadedEpisode, 'events'>, call: number): { messages: Message[]; tools: ToolDef[] } {
  const req = ep.events.find((e) => e.type === 'model/request' && e.call === call);
  if (!req || req.type !== 'model/request') throw new Error(`episode has no model call ${call}`);
  const messages: Message[] = [];
  let tools: ToolDef[] = [];
  for (const e of ep.events) {
    if (e === req) break;
    if (e.type === 'tools') tools = e.tools;
    if (e.type === 'message') {
      if (e.index !== messages.length) throw new EpisodeFormatError(`message events out of order: expected index ${messages.length}, found ${e.index}`);
      messages.push(e.message);
    }
  }
  if (messages.length < req.messageCount) throw new EpisodeFormatError(`model call ${call} used ${req.messageCount} messages but only ${messages.length} were recorded before it`);
  return { messages: messages.slice(0, req.messageCount), tools };
}

export interface EpisodeSummary {
  id: string;
  dir: string;
  meta: EpisodeMeta;
  success: boolean | null;
  finish: string | null;
  llmCalls: number;
  actions: number;
}

/** Every loadable episode under `root`, newest first; unreadable folders are skipped. */
export function listEpisodes(root: string): EpisodeSummary[] {
  if (!existsSync(root)) return [];
  const out: EpisodeSummary[] = [];
  for (const name of readdirSync(root)) {
    const dir = join(root, name);
    if (!statSync(dir).isDirectory() || !existsSync(join(dir, META_FILE))) continue;
    try {
      const ep = loadEpisode(dir);
      const verdict = ep.events.find((e) => e.type === 'verdict');
      out.push({
        id: ep.meta.id,
        dir,
        meta: ep.meta,
        success: verdict?.type === 'verdict' ? verdict.success : null,
        finish: verdict?.type === 'verdict' ? verdict.finish : null,
        llmCalls: ep.events.filter((e) => e.type === 'model/request').length,
        actions: ep.events.filter((e) => e.type === 'action').length,
      });
    } catch {
      continue;
    }
  }
  return out.sort((a, b) => b.meta.createdAt.localeCompare(a.meta.createdAt));
}
