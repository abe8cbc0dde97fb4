/**
 * The `agent` suite: the two arms on every task × seeds (default 0–4) with the scripted planner,
 * and the code/tool-calling ratios of model calls and input tokens on the instances both arms
 * solved (the published study: 0.51× calls, 0.35× input tokens with a real model). Images come
 * from the headless renderer when it starts (ROBOCELL_BENCH_RENDER=0 turns it off).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, runEpisode, type EpisodeOutcome } from '../agent/loop';
import { createRobotEnvironment } from '../agent/robot/robotEnvironment';
import { createScriptedModel } from '../agent/scripted/planner';
import { robotPolicies } from '../agent/scripted/robotPolicies';
import { sharedRenderer } from '../render/headless';
import { TASKS } from '../tasks/registry';
import type { BenchSuite } from './main';

function seeds(): number[] {
  const spec = process.env.ROBOCELL_BENCH_SEEDS ?? '0-4';
  const m = /^(\d+)-(\d+)$/.exec(spec);
  if (m) return Array.from({ length: Number(m[2]) - Number(m[1]) + 1 }, (_, i) => Number(m[1]) + i);
  return spec.split(',').map(Number);
}

async function canRender(): Promise<string | null> {
  if (process.env.ROBOCELL_BENCH_RENDER === '0') return 'ROBOCELL_BENCH_RENDER=0';
  try {
    await sharedRenderer();
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

export interface ArmPair {
  taskId: string;
  seed: number;
  tools: EpisodeOutcome;
  code: EpisodeOutcome;
}

export function ratios(pairs: ArmPair[]) {
  const both = pairs.filter((p) => p.tools.success && p.code.success);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const mean = (xs: number[]) => (xs.length ? sum(xs) / xs.length : NaN);
  return {
    bothSolved: both.length,
    callsRatioOfTotals: sum(both.map((p) => p.code.totals.llmCalls)) / sum(both.map((p) => p.tools.totals.llmCalls)),
    inputRatioOfTotals: sum(both.map((p) => p.code.totals.inputTokens)) / sum(both.map((p) => p.tools.totals.inputTokens)),
    callsMeanRatio: mean(both.map((p) => p.code.totals.llmCalls / p.tools.totals.llmCalls)),
    inputMeanRatio: mean(both.map((p) => p.code.totals.inputTokens / p.tools.totals.inputTokens)),
  };
}

export const agentSuite: BenchSuite = {
  name: 'agent',
  async run() {
    process.env.ROBOCELL_MUJOCO_QUIET ??= '1';
    const noRender = await canRender();
    const render = noRender === null;
    console.log(`scripted planner, seeds ${seeds().join(',')}, images ${render ? 'rendered (front + wrist, low detail)' : `off (${noRender})`}`);
    const root = mkdtempSync(join(tmpdir(), 'robocell-bench-agent-'));
    const model = createScriptedModel(robotPolicies);
    const pairs: ArmPair[] = [];
    console.log('| task | solved tools/code | calls tools → code | input tokens tools → code | image tokens tools |');
    console.log('|---|---|---|---|---|');
    try {
      for (const task of TASKS) {
        const mine: ArmPair[] = [];
        for (const seed of seeds()) {
          const run = async (arm: 'tools' | 'code') => {
            const env = await createRobotEnvironment({ taskId: task.id, variant: 'default', seed }, { render });
            try {
              return await runEpisode({ env, model, arm, settings: DEFAULT_SETTINGS, outRoot: root });
            } finally {
              env.dispose();
            }
          };
          mine.push({ taskId: task.id, seed, tools: await run('tools'), code: await run('code') });
        }
        pairs.push(...mine);
        const avg = (f: (p: ArmPair) => number) => Math.round(mine.reduce((s, p) => s + f(p), 0) / mine.length);
        const solved = (arm: 'tools' | 'code') => mine.filter((p) => p[arm].success).length;
        console.log(
          `| ${task.id} | ${solved('tools')}/${solved('code')} of ${mine.length} | ${avg((p) => p.tools.totals.llmCalls)} → ${avg((p) => p.code.totals.llmCalls)} | ${avg((p) => p.tools.totals.inputTokens)} → ${avg((p) => p.code.totals.inputTokens)} | ${avg((p) => p.tools.totals.imageTokens)} |`,
        );
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    const r = ratios(pairs);
    console.log(`\ninstances both arms solved: ${r.bothSolved} of ${pairs.length}`);
    console.log(`code/tools model calls: ${r.callsRatioOfTotals.toFixed(2)}× (ratio of totals), ${r.callsMeanRatio.toFixed(2)}× (mean per instance)`);
    console.log(`code/tools input tokens: ${r.inputRatioOfTotals.toFixed(2)}× (ratio of totals), ${r.inputMeanRatio.toFixed(2)}× (mean per instance)`);
    console.log('(published study, a real model: 0.51× calls, 0.35× input tokens)');
  },
};
