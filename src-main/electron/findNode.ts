import { accessSync, constants, statSync } from 'node:fs';
import { basename, delimiter, isAbsolute, join, resolve } from 'node:path';

export interface FindNodeDeps {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  /** True when `path` is a regular file this process may execute. */
  isExecutable(path: string): boolean;
}

export class NodeNotFoundError extends Error {
  override name = 'NodeNotFoundError';
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export const realFindNodeDeps: FindNodeDeps = { env: process.env, platform: process.platform, isExecutable: isExecutableFile };

/** True for `node`, `node.exe`, `nodejs` (Debian's name), not for `electron` or `npm-cli.js`. */
export function looksLikeNodeBinary(path: string): boolean {
  return /^(node|nodejs)(\.exe)?$/i.test(basename(path));
}

/**
 * The engine needs the `node` that ran `npm install` (isolated-vm's native addon matches its ABI),
 * never Electron's own binary: npm records it in npm_node_execpath; otherwise take `node` on PATH.
 */
export function findNode(deps: FindNodeDeps = realFindNodeDeps): string {
  const fromNpm = deps.env.npm_node_execpath;
  if (fromNpm && looksLikeNodeBinary(fromNpm) && isAbsolute(fromNpm) && deps.isExecutable(fromNpm)) return resolve(fromNpm);

  const names = deps.platform === 'win32' ? ['node.exe'] : ['node', 'nodejs'];
  const pathVar = deps.env.PATH ?? deps.env.Path ?? '';
  const dirs = pathVar.split(deps.platform === 'win32' ? ';' : delimiter).filter((d) => d.length > 0);
  for (const dir of dirs) {
    for (const name of names) {
      // A relative PATH entry would resolve against whatever the cwd is: skip it.
      if (!isAbsolute(dir)) continue;
      const candidate = join(dir, name);
      if (deps.isExecutable(candidate)) return resolve(candidate);
    }
  }
  const tried = fromNpm ? `npm_node_execpath=${fromNpm} (not a usable node binary) and ` : '';
  throw new NodeNotFoundError(
    `Robocell Studio needs Node.js 20 or newer to run its engine, but found none: tried ${tried}` +
      `${names.join('/')} in each PATH directory (${dirs.length} searched). Install Node.js and start the studio with \`npm start\`.`,
  );
}
