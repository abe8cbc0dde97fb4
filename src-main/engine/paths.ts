import { existsSync, readFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cachedRoot: string | null = null;

/** The project root, found from this module whether it runs from src-main or from out/node. */
export function packageRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === 'robocell-studio') return (cachedRoot = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the robocell-studio package root');
    dir = up;
  }
}

export const assetsDir = (): string => join(packageRoot(), 'assets');
export const rendererDir = (): string => join(packageRoot(), 'out', 'renderer');

/**
 * Where the engine keeps what it makes once per machine and may remake at will (the Python
 * snapshot, the experiment worker's code cache): ROBOCELL_CACHE_DIR, else the user's cache
 * directory (XDG), else the temp directory. Deleting it is always safe.
 */
export function robocellCacheDir(): string {
  if (process.env.ROBOCELL_CACHE_DIR) return process.env.ROBOCELL_CACHE_DIR;
  if (process.env.XDG_CACHE_HOME) return join(process.env.XDG_CACHE_HOME, 'robocell');
  const home = homedir();
  return home ? join(home, '.cache', 'robocell') : join(tmpdir(), 'robocell-cache');
}
