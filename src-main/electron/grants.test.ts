import { describe, expect, it } from 'vitest';
import { GrantLine } from '../../src-shared/fileGrant';
import { grantFiles } from './grants';

describe('file grants from the native dialogs', () => {
  it('sends the engine the path and gives the page only an opaque id and the name', () => {
    const lines: string[] = [];
    const grants = grantFiles(['/home/u/Downloads/run.robocell.json', '/home/u/b.json'], 'read', (l) => (lines.push(l), true));
    expect(grants).toEqual([
      { grantId: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/), name: 'run.robocell.json' },
      { grantId: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/), name: 'b.json' },
    ]);
    expect(grants[0].grantId).not.toBe(grants[1].grantId);
    expect(JSON.stringify(grants)).not.toContain('/home/u');
    // One line each, in the shared format the engine's stdin reader accepts.
    expect(lines.map((l) => l.endsWith('\n'))).toEqual([true, true]);
    expect(lines.map((l) => GrantLine.parse(JSON.parse(l)).grant)).toEqual([
      { id: grants[0].grantId, path: '/home/u/Downloads/run.robocell.json', mode: 'read' },
      { id: grants[1].grantId, path: '/home/u/b.json', mode: 'read' },
    ]);
  });

  it('fails clearly when the engine is not there to receive the grant', () => {
    expect(() => grantFiles(['/tmp/a.json'], 'write', () => false)).toThrow(/engine is not running/);
  });
});
