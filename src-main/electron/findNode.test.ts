import { describe, expect, it } from 'vitest';
import { findNode, looksLikeNodeBinary, NodeNotFoundError, type FindNodeDeps } from './findNode';

function deps(env: FindNodeDeps['env'], executables: string[]): FindNodeDeps {
  return { env, platform: 'linux', isExecutable: (p) => executables.includes(p) };
}

describe('findNode', () => {
  it('prefers npm_node_execpath when it is an executable node binary', () => {
    const found = findNode(deps({ npm_node_execpath: '/opt/node20/bin/node', PATH: '/usr/bin' }, ['/opt/node20/bin/node', '/usr/bin/node']));
    expect(found).toBe('/opt/node20/bin/node');
  });

  it('ignores npm_node_execpath when it names something other than node (Electron, a script)', () => {
    const found = findNode(deps({ npm_node_execpath: '/opt/app/electron', PATH: '/usr/local/bin:/usr/bin' }, ['/opt/app/electron', '/usr/bin/node']));
    expect(found).toBe('/usr/bin/node');
  });

  it('ignores npm_node_execpath when that file is not executable', () => {
    const found = findNode(deps({ npm_node_execpath: '/gone/node', PATH: '/usr/bin' }, ['/usr/bin/node']));
    expect(found).toBe('/usr/bin/node');
  });

  it('takes the first PATH directory that holds node, resolving the path and skipping relative entries', () => {
    const found = findNode(deps({ PATH: 'bin::/a/../b:/c' }, ['bin/node', '/b/node', '/c/node']));
    expect(found).toBe('/b/node');
  });

  it("accepts Debian's nodejs name", () => {
    expect(findNode(deps({ PATH: '/usr/bin' }, ['/usr/bin/nodejs']))).toBe('/usr/bin/nodejs');
  });

  it('throws a clear error naming what it tried when there is no node', () => {
    const run = () => findNode(deps({ npm_node_execpath: '/x/electron', PATH: '/usr/bin:/bin' }, []));
    expect(run).toThrow(NodeNotFoundError);
    expect(run).toThrow(/Node\.js 20 or newer.*npm_node_execpath=\/x\/electron.*2 searched/);
  });

  it('finds a real node on this machine', () => {
    expect(looksLikeNodeBinary(findNode())).toBe(true);
  });
});

describe('looksLikeNodeBinary', () => {
  it('tells node binaries from other executables', () => {
    expect(['/usr/bin/node', 'C:/node.exe', '/usr/bin/nodejs'].map(looksLikeNodeBinary)).toEqual([true, true, true]);
    expect(['/usr/bin/electron', '/usr/lib/node_modules/npm/bin/npm-cli.js', '/usr/bin/node2'].map(looksLikeNodeBinary)).toEqual([false, false, false]);
  });
});
