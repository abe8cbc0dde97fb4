/**
 * Where a process's RSS sits, by mapping (Linux /proc/self/smaps): process.memoryUsage() names
 * V8's heap and the buffers it tracks, but most of an episode worker is native (MuJoCo's wasm
 * memory, Dawn and Mesa's Vulkan driver, isolates' heaps, code). Anonymous mappings are told
 * apart by size, since wasm memories and isolate heaps are large reservations of their own.
 */
import { readFileSync } from 'node:fs';

export interface RssShare {
  /** A file's base name, `[heap]`, `[stack]`, or `anon ≥ N MiB` / `anon < 64 MiB` for anonymous memory. */
  name: string;
  rssKiB: number;
  mappings: number;
}

const HEADER = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/;

/** Groups a smaps text by what is mapped; the largest first. */
export function rssByMapping(smaps: string): RssShare[] {
  const shares = new Map<string, RssShare>();
  let current: RssShare | null = null;
  for (const line of smaps.split('\n')) {
    const h = HEADER.exec(line);
    if (h) {
      const sizeMiB = (parseInt(h[2], 16) - parseInt(h[1], 16)) / 2 ** 20;
      const path = h[3].trim();
      // A wasm memory reserves its whole address space (GiBs); an isolate's heap cage too.
      const name = path ? path.split('/').pop() || path : sizeMiB >= 1024 ? 'anon ≥ 1 GiB reservation' : sizeMiB >= 64 ? 'anon 64 MiB–1 GiB' : 'anon < 64 MiB';
      current = shares.get(name) ?? { name, rssKiB: 0, mappings: 0 };
      current.mappings++;
      shares.set(name, current);
      continue;
    }
    if (current && line.startsWith('Rss:')) current.rssKiB += Number(line.slice(4).trim().split(/\s+/)[0]);
  }
  return [...shares.values()].filter((s) => s.rssKiB > 0).sort((a, b) => b.rssKiB - a.rssKiB);
}

/** One line: the `top` largest shares in MiB, for the bench's log. */
export function rssByMappingLine(top = 14): string {
  let text: string;
  try {
    text = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return 'no /proc/self/smaps on this system';
  }
  return rssByMapping(text)
    .slice(0, top)
    .map((s) => `${s.name} ${(s.rssKiB / 1024).toFixed(1)}`)
    .join(', ');
}
