/**
 * File access that an attacker-supplied folder or path cannot turn against the user: episode
 * files only when their real path stays inside the episode folder (no symbolic link out), and
 * reads of user-chosen files only from a regular file under a size cap, opened without blocking
 * (a FIFO would otherwise hang), with errors that never quote the file's contents.
 */
import { constants, existsSync, realpathSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** True when `child` is `dir` itself or below it, compared as given (no link resolution). */
export function isWithin(dir: string, child: string): boolean {
  const rel = relative(resolve(dir), resolve(child));
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * The real path of `file` when it exists, is a regular file, and its real path (symbolic links
 * resolved) lies strictly inside the real path of `dir`; otherwise null.
 */
export function realFileInside(dir: string, file: string): string | null {
  try {
    if (!existsSync(file)) return null;
    const realDir = realpathSync(dir);
    const real = realpathSync(file);
    if (real === realDir || !isWithin(realDir, real)) return null;
    return statSync(real).isFile() ? real : null;
  } catch {
    return null;
  }
}

export class UserFileError extends Error {
  override name = 'UserFileError';
}

/**
 * Reads a user-chosen file as UTF-8 text. Opens with O_NONBLOCK so a FIFO or device returns at
 * once, then refuses anything but a regular file of at most `maxBytes`. Messages name the path and
 * the reason (never the bytes).
 */
export async function readUserFile(path: string, maxBytes: number): Promise<string> {
  if (!isAbsolute(path)) throw new UserFileError(`not an absolute path: ${path}`);
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw new UserFileError(`cannot open ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new UserFileError(`${path} is not a regular file`);
    if (info.size > maxBytes) throw new UserFileError(`${path} is ${info.size} bytes; the limit is ${maxBytes}`);
    // The file may change after the stat: read to the end, stopping one chunk past the cap.
    const chunks: Buffer[] = [];
    let n = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(1 << 20, maxBytes + 1));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, n);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      n += bytesRead;
      if (n > maxBytes) throw new UserFileError(`${path} grew past the ${maxBytes}-byte limit while being read`);
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch (err) {
    if (err instanceof UserFileError) throw err;
    throw new UserFileError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  } finally {
    await handle.close();
  }
}
