/** `robocell prompt` prints the first request exactly as `robocell run` sends it (the built CLI). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEpisode, rebuildContext } from '../../src-main/engine/episodes/store';
import { packageRoot } from '../../src-main/engine/paths';
import { NO_RENDERER_TEXT } from '../../src-main/engine/agent/prompt';

const out = mkdtempSync(join(tmpdir(), 'robocell-prompt-'));
const cli = (args: string[]) => spawnSync(process.execPath, ['bin/robocell.mjs', ...args], { cwd: packageRoot(), encoding: 'utf8', timeout: 120_000 });

interface WireBody {
  model?: string;
  messages: Array<{ role: string; content: unknown }>;
  tools: Array<{ type: string; function: { name: string; description: string; parameters: unknown } }>;
}

beforeAll(() => {
  const built = spawnSync(process.execPath, ['scripts/build-node.mjs'], { cwd: packageRoot(), encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('robocell prompt', () => {
  it('--json prints the Chat Completions body of the first request, identical to what run records', () => {
    for (const arm of ['tools', 'code'] as const) {
      const p = cli(['prompt', '--task', 'pp-cube-on-plate', '--seed', '2', '--arm', arm, '--no-render', '--max-calls', '1', '--model', 'gpt-4o', '--json']);
      expect(p.status, p.stderr).toBe(0);
      const body = JSON.parse(p.stdout) as WireBody;
      expect(body.model).toBe('gpt-4o');
      expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
      expect(body.tools.map((t) => t.function.name)).toEqual(arm === 'tools' ? ['state', 'find', 'show', 'image', 'move_to', 'wait', 'rotate_wrist', 'set_gripper', 'grasp', 'release', 'finish'] : ['javascript', 'finish']);
      expect(String(body.messages[0].content)).toContain(NO_RENDERER_TEXT);

      const run = cli(['run', '--task', 'pp-cube-on-plate', '--seed', '2', '--arm', arm, '--model', 'scripted', '--no-render', '--max-calls', '1', '--out', out, '--json']);
      const summary = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { episodeDir: string };
      const ctx = rebuildContext(loadEpisode(summary.episodeDir), 1);
      expect(body.messages).toEqual(ctx.messages.map((m) => ({ role: m.role, content: m.content })));
      expect(body.tools).toEqual(ctx.tools.map((t) => ({ type: 'function', function: t })));
    }
  });

  it('prints a readable request, says whether images can come, and explains bad usage', () => {
    const p = cli(['prompt', '--task', 'bi-lift-tray', '--arm', 'code']);
    expect(p.status, p.stderr).toBe(0);
    expect(p.stdout).toMatch(/^=== system ===\n/);
    expect(p.stdout).toContain('=== user ===');
    expect(p.stdout).toContain('=== tools (2) ===');
    expect(p.stdout).toContain('robo.move_to(');
    expect(p.stdout).toMatch(/~\d+ input tokens/);
    // Rendering is on by default (as in `run`), so the code arm is told of robo.show, not of a missing renderer.
    expect(p.stdout).toContain('only when a cell calls `robo.show`');
    expect(p.stdout).not.toContain(NO_RENDERER_TEXT);
    const noArm = cli(['prompt', '--task', 'bi-lift-tray']);
    expect(noArm.status).toBe(2);
    expect(noArm.stderr).toMatch(/--arm is required/);
    const badTask = cli(['prompt', '--task', 'nope', '--arm', 'tools']);
    expect(badTask.status).not.toBe(0);
    expect(badTask.stderr).toMatch(/nope/);
  });
});
