import { describe, expect, it } from 'vitest';
import { Tally } from './accounting';

const est = (total: number) => ({ total, imageTokens: 0 });

describe('episode totals', () => {
  it('keeps output, cached and cost, and summarises the estimate beside the billed usage', () => {
    const t = new Tally('gpt-4o', undefined);
    t.addCall({ inputTokens: 1000, cachedInputTokens: 0, outputTokens: 50 }, est(1100), 40);
    t.addCall({ inputTokens: 2000, cachedInputTokens: 1024, outputTokens: 60 }, est(2100), 55);
    const totals = t.totals(0, 0);
    expect(totals).toMatchObject({ llmCalls: 2, inputTokens: 3000, cachedInputTokens: 1024, outputTokens: 110, estimatedInputTokens: 3200, usageSource: 'provider' });
    expect(totals.estimateGap).toEqual({ calls: 2, estimatedInputTokens: 3200, billedInputTokens: 3000, ratio: 3200 / 3000 });
    // gpt-4o: $2.5/M input, $1.25/M cached, $10/M output.
    expect(totals.costUsd).toBeCloseTo((1976 * 2.5 + 1024 * 1.25 + 110 * 10) / 1e6, 12);
  });

  it('labels simulated usage, falls back to the estimate without usage, and calls a mix mixed', () => {
    const sim = new Tally('scripted', undefined);
    sim.addCall({ inputTokens: 10, cachedInputTokens: 0, outputTokens: 1, simulated: true }, est(10), 1);
    expect(sim.totals(0, 0).usageSource).toBe('simulated');
    const none = new Tally('gpt-4o', undefined);
    none.addCall(null, est(500), 7);
    expect(none.totals(0, 0)).toMatchObject({ inputTokens: 500, outputTokens: 7, usageSource: 'estimate', estimateGap: { calls: 0, ratio: null } });
    none.addCall({ inputTokens: 400, cachedInputTokens: 0, outputTokens: 5 }, est(450), 5);
    expect(none.totals(0, 0)).toMatchObject({ usageSource: 'mixed', estimateGap: { calls: 1, estimatedInputTokens: 450, billedInputTokens: 400 } });
  });
});
