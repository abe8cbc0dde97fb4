import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import type { FileGrant } from '../../src-shared/electronIpc';
import { grantLine } from '../../src-shared/fileGrant';

/**
 * Paths from the native dialogs go to the engine, not the page: each becomes a one-time grant
 * written to the engine's stdin (src-shared/fileGrant.ts),
 * and the page gets only the grant's id and the file's name.
 */
export function grantFiles(paths: readonly string[], mode: 'read' | 'write', sendToEngine: (line: string) => boolean): FileGrant[] {
  return paths.map((path) => {
    const grantId = randomBytes(24).toString('base64url');
    if (!sendToEngine(grantLine({ id: grantId, path, mode }))) throw new Error('the engine is not running: try again once it is back');
    return { grantId, name: basename(path) };
  });
}
