import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { grantLine } from '../../../src-shared/fileGrant';
import { PathGrants, readGrantLines } from './grants';

const ID = 'A'.repeat(32);

describe('one-time file grants', () => {
  it('a grant is taken once, for its mode only', async () => {
    const g = new PathGrants({ arrivalWaitMs: 20 });
    expect(g.add({ id: ID, path: '/tmp/x.json', mode: 'read' })).toBe(true);
    await expect(g.take(ID, 'read')).resolves.toBe('/tmp/x.json');
    await expect(g.take(ID, 'read')).rejects.toThrow(/unknown, used or expired/);
    g.add({ id: ID, path: '/tmp/x.json', mode: 'write' });
    await expect(g.take(ID, 'read')).rejects.toThrow(/chosen to save, not to open/);
  });

  it('refuses ids and grants that were never made by the shell', async () => {
    const g = new PathGrants({ arrivalWaitMs: 20 });
    await expect(g.take('/etc/passwd', 'read')).rejects.toThrow(/not a file grant/);
    await expect(g.take('B'.repeat(32), 'read')).rejects.toThrow(/unknown/);
    expect(g.add({ id: ID, path: 'relative/x.json', mode: 'read' })).toBe(false);
    expect(g.add({ id: 'short', path: '/x', mode: 'read' })).toBe(false);
    expect(g.add({ id: ID, path: '/x', mode: 'exec' })).toBe(false);
  });

  it('expires unused grants', async () => {
    const g = new PathGrants({ ttlMs: 10, arrivalWaitMs: 0 });
    g.add({ id: ID, path: '/tmp/x', mode: 'read' });
    await new Promise((r) => setTimeout(r, 30));
    await expect(g.take(ID, 'read')).rejects.toThrow(/expired/);
  });

  it('waits briefly for a grant still in the pipe (the socket may win the race)', async () => {
    const g = new PathGrants({ arrivalWaitMs: 2000 });
    const input = new PassThrough();
    readGrantLines(input, g, () => undefined);
    const taken = g.take(ID, 'read');
    setTimeout(() => input.write(grantLine({ id: ID, path: '/tmp/late.json', mode: 'read' })), 50);
    await expect(taken).resolves.toBe('/tmp/late.json');
  });

  it('reads grant lines split across chunks and ignores anything else without echoing it', async () => {
    const g = new PathGrants({ arrivalWaitMs: 0 });
    const input = new PassThrough();
    const warnings: string[] = [];
    readGrantLines(input, g, (m) => warnings.push(m));
    const line = grantLine({ id: ID, path: '/tmp/split.json', mode: 'read' });
    input.write(line.slice(0, 10));
    input.write(line.slice(10) + 'secret-token-123\n{"grant":{"id":"x"}}\n');
    await new Promise((r) => setImmediate(r));
    await expect(g.take(ID, 'read')).resolves.toBe('/tmp/split.json');
    expect(warnings).toHaveLength(2);
    expect(warnings.join(' ')).not.toContain('secret-token');
  });
});
