import { describe, expect, it } from 'vitest';
import type { ExperimentManifest, ResultRecord } from '../../../src-shared/experiments';
import { DEFAULT_PRICES } from '../../../src-shared/tokens';
import { paperTable, paperTableHtml, paperTableText, simulatedUsageNote } from './paperTable';

const rec = (taskId: string, seed: number, arm: 'tools' | 'code', success: boolean, calls: number, input: number, cost: number): ResultRecord =>
  ({
    key: { taskId, variant: 'default', seed, repeat: 0, arm },
    success,
    finishedAt: `2026-12-0${1 + seed}T10:00:00Z`,
    totals: { llmCalls: calls, inputTokens: input, cachedInputTokens: 0, outputTokens: 0, costUsd: cost },
  }) as ResultRecord;
const manifest = { spec: { model: { name: 'gpt-4o' } }, model: { label: 'gpt-4o' }, prices: DEFAULT_PRICES } as unknown as ExperimentManifest;

describe('paperTable', () => {
  const records = [
    // robotwin: two pairs, both solved in one (code 5 calls / 1000 tokens vs tools 10 / 4000).
    rec('robotwin/a', 0, 'tools', true, 10, 4000, 0.4),
    rec('robotwin/a', 0, 'code', true, 5, 1000, 0.1),
    rec('robotwin/a', 1, 'tools', false, 30, 9000, 0.9),
    rec('robotwin/a', 1, 'code', true, 6, 1200, 0.12),
    // robocasa: one pair, only tools solved; an unpaired record is left out.
    rec('robocasa/b', 0, 'tools', true, 8, 2000, 0.2),
    rec('robocasa/b', 0, 'code', false, 4, 500, 0.05),
    rec('robocasa/b', 2, 'code', true, 4, 500, 0.05),
  ];
  const t = paperTable({ manifest, records });

  it('has a row per suite and one overall, with rates, tests and both-solved ratios', () => {
    expect(t.rows.map((r) => [r.scope, r.pairs])).toEqual([
      ['robocasa', 1],
      ['robotwin', 2],
      ['overall', 3],
    ]);
    const rt = t.rows[1];
    expect(rt.success.tools.rate).toBe(0.5);
    expect(rt.success.code.rate).toBe(1);
    expect(rt.bothSolved).toBe(1);
    expect(rt.ratios.llmCalls).toBeCloseTo(0.5, 9);
    expect(rt.ratios.inputTokens).toBeCloseTo(0.25, 9);
    expect(rt.ratios.costUsd).toBeCloseTo(0.25, 9);
    expect(t.rows[0].ratios.llmCalls).toBeNull();
    expect(t.rows[2].mcnemarP).toBe(1);
    expect(t.run).toMatchObject({ model: 'gpt-4o', from: '2026-12-01', to: '2026-12-03' });
  });

  it("prints the paper's published figures beside, labelled as the paper's, with this run's model, prices and dates", () => {
    const text = paperTableText(t);
    expect(text).toMatch(/the paper's published figures\s+700\s+63\.1%.*71\.7%.*0\.51×\s+0\.35×/);
    expect(text).toMatch(/This run: gpt-4o, \$2\.5 \/ \$1\.25 cached \/ \$10 output per million tokens, episodes recorded 2026-12-01 to 2026-12-03/);
    const html = paperTableHtml(t);
    expect(html).toContain('data-testid="paper-table"');
    expect(html).toMatch(/<tr class="paper"><td class="l">the paper&#39;s|<tr class="paper"><td class="l">the paper's/);
  });

  it('says so above the table when the usage was simulated (a rehearsal), and not for a provider-billed run', () => {
    expect(t.run.usage).toEqual({ provider: 0, simulated: 0, estimate: 7, mixed: 0 });
    expect(simulatedUsageNote(t)).toBeNull();
    const billed = records.map((r) => ({ ...r, totals: { ...r.totals, usageSource: 'provider' as const } }));
    expect(simulatedUsageNote(paperTable({ manifest, records: billed }))).toBeNull();
    expect(paperTableHtml(paperTable({ manifest, records: billed }))).not.toContain('usage-simulated');
    const rehearsed = billed.map((r, i) => (i < 5 ? { ...r, totals: { ...r.totals, usageSource: 'simulated' as const } } : r));
    const rt = paperTable({ manifest, records: rehearsed });
    expect(simulatedUsageNote(rt)).toMatch(/^REHEARSAL: the token usage of 5 of 7 episodes was simulated .* not gpt-4o's figures$/);
    expect(paperTableText(rt)).toContain('REHEARSAL: the token usage of 5 of 7 episodes');
    expect(paperTableHtml(rt)).toMatch(/<h2 id="paper">Beside the paper<\/h2><div class="banner warn" data-testid="usage-simulated">REHEARSAL/);
  });
});
