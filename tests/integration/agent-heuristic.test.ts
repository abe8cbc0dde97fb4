/**
 * The study's set-up end to end: the scripted planner behind the OpenAI-compatible test server,
 * reached through the real `openai` SDK, drives both arms on every built-in task at seed 0. Both
 * must solve it, the code arm with fewer model calls and fewer input tokens, and every recorded
 * episode must replay with equal state hashes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENVIRONMENTS } from '../../src-main/engine/agent/environments';
import { DEFAULT_SETTINGS, runEpisode, type EpisodeOutcome } from '../../src-main/engine/agent/loop';
import { createOpenAIModel } from '../../src-main/engine/agent/openai/openaiModel';
import { createRobotEnvironment } from '../../src-main/engine/agent/robot/robotEnvironment';
import { createScriptedModel } from '../../src-main/engine/agent/scripted/planner';
import { robotPolicies } from '../../src-main/engine/agent/scripted/robotPolicies';
import { startTestServer, type TestServer } from '../../src-main/engine/agent/testServer';
import { loadEpisode } from '../../src-main/engine/episodes/store';
import { replayEpisode } from '../../src-main/engine/episodes/replay';
import { TASKS } from '../../src-main/engine/tasks/registry';

let server: TestServer;
const root = mkdtempSync(join(tmpdir(), 'robocell-agent-'));
beforeAll(async () => {
  server = await startTestServer({ planner: createScriptedModel(robotPolicies) });
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

async function run(taskId: string, arm: 'tools' | 'code'): Promise<EpisodeOutcome> {
  const env = await createRobotEnvironment({ taskId, variant: 'default', seed: 0 });
  try {
    // Streaming for one arm and not the other, so both wire paths are exercised on every task.
    const model = createOpenAIModel({ model: 'gpt-4o', baseUrl: server.baseUrl, apiKey: 'test', stream: arm === 'tools' });
    return await runEpisode({ env, model, arm, settings: DEFAULT_SETTINGS, outRoot: root });
  } finally {
    env.dispose();
  }
}

describe('both arms on every task (scripted planner through the openai SDK and the test server)', () => {
  for (const task of TASKS) {
    it(`${task.id}: both succeed, code uses fewer calls and input tokens, both replay`, async () => {
      const tools = await run(task.id, 'tools');
      const code = await run(task.id, 'code');
      expect(tools.success, `tools: ${tools.reason}`).toBe(true);
      expect(code.success, `code: ${code.reason}`).toBe(true);
      expect(code.totals.llmCalls).toBeLessThan(tools.totals.llmCalls);
      expect(code.totals.inputTokens).toBeLessThan(tools.totals.inputTokens);
      // The usage came from the server (the tokenizer there), and matches our own estimate.
      expect(tools.totals.inputTokens).toBe(tools.totals.estimatedInputTokens);
      expect(loadEpisode(tools.dir).meta.model.name).toBe('gpt-4o');
      for (const ep of [tools, code]) {
        const report = await replayEpisode(ep.dir, ENVIRONMENTS);
        expect(report.matched, `${ep.dir}: ${report.mismatches} mismatches`).toBe(true);
        expect(report.steps.length).toBe(ep.totals.actions);
      }
    });
  }
});
