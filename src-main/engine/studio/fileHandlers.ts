/**
 * Import from and export to files the user chose in the shell's native dialogs. The request
 * carries a one-time grant id, never a path; reads take only a regular file under a size cap,
 * asynchronously and without blocking on a FIFO; errors name the file, never its contents.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Handlers } from '../rpc';
import { RpcError } from '../rpc';
import { GrantError, type PathGrants } from './grants';
import type { EpisodeLibrary } from './library';
import { UserFileError, readUserFile } from './safeFiles';

/** Exports carry their images: far above the socket's frame cap, far below what would hurt. */
export const MAX_IMPORT_FILE_BYTES = 64 * 1024 * 1024;

async function takeGrant(grants: PathGrants, id: string, mode: 'read' | 'write'): Promise<string> {
  try {
    return await grants.take(id, mode);
  } catch (err) {
    if (err instanceof GrantError) throw new RpcError('invalid-argument', err.message);
    throw err;
  }
}

/** Writes `text` to a user-chosen path: a regular file (new or replaced), never a FIFO or device. */
async function writeUserFile(path: string, text: string): Promise<void> {
  let handle;
  try {
    // O_NONBLOCK: opening a FIFO with no reader fails at once instead of hanging.
    handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_NONBLOCK, 0o644);
  } catch (err) {
    throw new RpcError('invalid-argument', `cannot write ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  try {
    if (!(await handle.stat()).isFile()) throw new RpcError('invalid-argument', `${path} is not a regular file`);
    await handle.truncate(0);
    await handle.writeFile(text, 'utf8');
  } catch (err) {
    if (err instanceof RpcError) throw err;
    throw new RpcError('invalid-argument', `cannot write ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  } finally {
    await handle.close();
  }
}

export function fileHandlers(s: { library: EpisodeLibrary; grants: PathGrants; onEpisodesChanged(): void }): Handlers {
  return {
    'episode/export-file': async ({ episodeId, grantId }) => {
      const { json } = s.library.export(episodeId);
      const path = await takeGrant(s.grants, grantId, 'write');
      await writeUserFile(path, json);
      return { fileName: basename(path) };
    },
    'episode/import-file': async ({ grantId }) => {
      const path = await takeGrant(s.grants, grantId, 'read');
      let json: string;
      try {
        json = await readUserFile(path, MAX_IMPORT_FILE_BYTES);
      } catch (err) {
        if (err instanceof UserFileError) throw new RpcError('invalid-argument', err.message);
        throw err;
      }
      // The same episode imported again writes nothing; the answer names the copy already here.
      const r = s.library.import(json);
      if (!r.duplicate) s.onEpisodesChanged();
      return r;
    },
  };
}
