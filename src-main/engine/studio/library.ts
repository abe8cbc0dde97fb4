/**
 * The studio's episode library: the user's episodes plus the bundled examples (read-only), with
 * names and fork links kept in a sidecar so meta.json stays as the run wrote it.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, normalize, relative, sep } from 'node:path';
import { z } from 'zod';
import { EpisodeEvent, EpisodeFormatError, migrateMeta, outcomeOf, type EpisodeMeta } from '../../../src-shared/episode';
import type { EpisodeSummary } from '../../../src-shared/protocol';
import { EVENTS_FILE, META_FILE, loadEpisode, type LoadedEpisode } from '../episodes/store';
import { assetsDir } from '../paths';
import { RpcError } from '../server/rpc';

const SIDECAR = 'studio.json';
const Sidecar = z.object({ name: z.string().nullable().default(null), parentId: z.string().nullable().default(null), forkedAtAction: z.number().int().nullable().default(null) });
type Sidecar = z.infer<typeof Sidecar>;

export const EXPORT_FORMAT = 'robocell-episode';
const ExportBundle = z.object({
  format: z.literal(EXPORT_FORMAT),
  formatVersion: z.literal(1),
  meta: z.unknown(),
  events: z.string(),
  sidecar: Sidecar.optional(),
  /** Image and snapshot files, base64, by path relative to the episode folder. */
  files: z.record(z.string(), z.string()),
});

export const bundledEpisodesDir = (): string => join(assetsDir(), 'demo-episodes');

export class EpisodeLibrary {
  /** Episodes a live run is writing: listed as live, never deleted. */
  readonly live = new Set<string>();
  /**
   * Parsed episodes by folder, reused while events.jsonl keeps its size and mtime: scrubbing
   * seeks and library listings would otherwise re-parse every event each time.
   */
  private readonly parsed = new Map<string, { stamp: string; episode: LoadedEpisode }>();

  constructor(
    readonly userDir: string,
    readonly bundledDir: string = bundledEpisodesDir(),
  ) {
    mkdirSync(userDir, { recursive: true });
  }

  /** The folder of an episode id, or a not-found error. Ids are folder names: no paths allowed. */
  dirOf(id: string): { dir: string; bundled: boolean } {
    if (!/^[A-Za-z0-9_.-]+$/.test(id) || id.startsWith('.')) throw new RpcError('invalid-argument', `not an episode id: ${JSON.stringify(id)}`);
    for (const [root, bundled] of [[this.userDir, false], [this.bundledDir, true]] as const) {
      const dir = join(root, id);
      if (existsSync(join(dir, META_FILE))) return { dir, bundled };
    }
    throw new RpcError('not-found', `no episode ${id}`);
  }

  open(id: string): LoadedEpisode & { sidecar: Sidecar; bundled: boolean } {
    const { dir, bundled } = this.dirOf(id);
    try {
      return { ...this.load(dir), sidecar: this.sidecar(dir), bundled };
    } catch (err) {
      if (err instanceof EpisodeFormatError) throw new RpcError('invalid-argument', err.message);
      throw err;
    }
  }

  private load(dir: string): LoadedEpisode {
    const events = join(dir, EVENTS_FILE);
    const meta = join(dir, META_FILE);
    const st = (f: string) => (existsSync(f) ? `${statSync(f).size}:${statSync(f).mtimeMs}` : '-');
    const stamp = `${st(events)}|${st(meta)}`;
    const hit = this.parsed.get(dir);
    if (hit && hit.stamp === stamp) return hit.episode;
    const episode = loadEpisode(dir);
    this.parsed.set(dir, { stamp, episode });
    return episode;
  }

  /** A file inside an episode folder (images, snapshots), or null when the path leaves the folder. */
  filePath(id: string, rel: string): string | null {
    const { dir } = this.dirOf(id);
    const file = normalize(join(dir, rel));
    if (!file.startsWith(dir + sep) || relative(dir, file).split(sep)[0] === '..') return null;
    return existsSync(file) && statSync(file).isFile() ? file : null;
  }

  list(): EpisodeSummary[] {
    const out: EpisodeSummary[] = [];
    for (const [root, bundled] of [[this.userDir, false], [this.bundledDir, true]] as const) {
      if (!existsSync(root)) continue;
      for (const name of readdirSync(root)) {
        const dir = join(root, name);
        if (!existsSync(join(dir, META_FILE))) continue;
        try {
          out.push(this.summarize(this.load(dir), this.sidecar(dir), bundled));
        } catch {
          // A corrupt folder must not hide the rest; opening it reports the problem.
          continue;
        }
      }
    }
    return out.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  private summarize(ep: LoadedEpisode, side: Sidecar, bundled: boolean): EpisodeSummary {
    let inputTokens = 0;
    let costUsd: number | null = null;
    let llmCalls = 0;
    let verdict: Extract<EpisodeEvent, { type: 'verdict' }> | null = null;
    for (const e of ep.events) {
      if (e.type === 'model/request') llmCalls++;
      if (e.type === 'model/reply') {
        inputTokens += e.usage?.inputTokens ?? e.estimate.total;
        if (e.costUsd !== null) costUsd = (costUsd ?? 0) + e.costUsd;
      }
      if (e.type === 'verdict') verdict = e;
    }
    return {
      id: ep.meta.id,
      name: side.name,
      createdAt: ep.meta.createdAt,
      instance: ep.meta.instance,
      arm: ep.meta.arm,
      modelLabel: ep.meta.model.label,
      scripted: ep.meta.model.scripted,
      success: verdict ? verdict.success : null,
      finish: verdict ? verdict.finish : null,
      outcome: outcomeOf(verdict, this.live.has(ep.meta.id)),
      llmCalls,
      inputTokens: verdict ? verdict.totals.inputTokens || inputTokens : inputTokens,
      costUsd: verdict ? verdict.totals.costUsd : costUsd,
      parentId: side.parentId,
      bundled,
      live: this.live.has(ep.meta.id),
    };
  }

  sidecar(dir: string): Sidecar {
    const p = join(dir, SIDECAR);
    if (!existsSync(p)) return Sidecar.parse({});
    const parsed = Sidecar.safeParse(JSON.parse(readFileSync(p, 'utf8')));
    return parsed.success ? parsed.data : Sidecar.parse({});
  }

  writeSidecar(id: string, patch: Partial<Sidecar>): void {
    const { dir, bundled } = this.dirOf(id);
    if (bundled) throw new RpcError('invalid-argument', 'bundled example episodes are read-only; export and import one to change it');
    writeFileSync(join(dir, SIDECAR), JSON.stringify({ ...this.sidecar(dir), ...patch }, null, 2));
  }

  rename(id: string, name: string): void {
    this.writeSidecar(id, { name: name.trim() });
  }

  delete(id: string): void {
    const { dir, bundled } = this.dirOf(id);
    if (bundled) throw new RpcError('invalid-argument', 'bundled example episodes cannot be deleted');
    if (this.live.has(id)) throw new RpcError('busy', 'this episode is still running; stop it first');
    rmSync(dir, { recursive: true, force: true });
    this.parsed.delete(dir);
  }

  export(id: string): { fileName: string; json: string } {
    const { dir } = this.dirOf(id);
    const files: Record<string, string> = {};
    for (const sub of ['images', 'snapshots']) {
      const d = join(dir, sub);
      if (!existsSync(d)) continue;
      for (const f of readdirSync(d)) files[`${sub}/${f}`] = readFileSync(join(d, f)).toString('base64');
    }
    const bundle = {
      format: EXPORT_FORMAT,
      formatVersion: 1,
      meta: JSON.parse(readFileSync(join(dir, META_FILE), 'utf8')),
      events: existsSync(join(dir, EVENTS_FILE)) ? readFileSync(join(dir, EVENTS_FILE), 'utf8') : '',
      sidecar: this.sidecar(dir),
      files,
    };
    return { fileName: `${id}.robocell.json`, json: JSON.stringify(bundle) };
  }

  /** Validates everything before writing anything; an id already present gets a suffix. */
  import(json: string): string {
    let raw: unknown;
    try {
      raw = JSON.parse(json);
    } catch (err) {
      throw new RpcError('invalid-argument', `not an episode export: invalid JSON (${(err as Error).message})`);
    }
    const parsed = ExportBundle.safeParse(raw);
    if (!parsed.success) throw new RpcError('invalid-argument', `not an episode export: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
    const bundle = parsed.data;
    let meta: EpisodeMeta;
    try {
      meta = migrateMeta(bundle.meta, 'the exported meta.json');
    } catch (err) {
      throw new RpcError('invalid-argument', (err as Error).message);
    }
    const lines = bundle.events.split('\n').filter((l) => l.length > 0);
    lines.forEach((line, i) => {
      let ev: unknown;
      try {
        ev = JSON.parse(line);
      } catch {
        throw new RpcError('invalid-argument', `exported events line ${i + 1} is not valid JSON`);
      }
      const r = EpisodeEvent.safeParse(ev);
      if (!r.success) throw new RpcError('invalid-argument', `exported events line ${i + 1}: ${r.error.issues[0].path.join('.')}: ${r.error.issues[0].message}`);
    });
    for (const rel of Object.keys(bundle.files)) {
      if (!/^(images|snapshots)\/[A-Za-z0-9_.-]+$/.test(rel)) throw new RpcError('invalid-argument', `exported file name not allowed: ${rel}`);
    }
    let id = meta.id;
    for (let n = 2; existsSync(join(this.userDir, id)) || existsSync(join(this.bundledDir, id)); n++) id = `${meta.id}-import${n}`;
    const dir = join(this.userDir, id);
    mkdirSync(join(dir, 'images'), { recursive: true });
    mkdirSync(join(dir, 'snapshots'), { recursive: true });
    writeFileSync(join(dir, META_FILE), JSON.stringify({ ...meta, id }, null, 2) + '\n');
    writeFileSync(join(dir, EVENTS_FILE), lines.map((l) => l + '\n').join(''));
    for (const [rel, b64] of Object.entries(bundle.files)) writeFileSync(join(dir, rel), Buffer.from(b64, 'base64'));
    writeFileSync(join(dir, SIDECAR), JSON.stringify(bundle.sidecar ?? Sidecar.parse({}), null, 2));
    return id;
  }
}
