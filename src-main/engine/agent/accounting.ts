/**
 * What a call costs as it is recorded, and the action counter. The episode's totals are not kept
 * here: they are the fold over the recorded events (src-shared/episode/fold.ts), so the verdict's
 * totals and any rebuilt from the events are one computation.
 */
import type { TokenUsage } from '../../../src-shared/episode';
import { costUsd, priceFor, type PriceTable } from '../../../src-shared/tokens';

export class Tally {
  /** Actions so far: the next action's 1-based index. */
  actions = 0;

  constructor(
    private readonly model: string,
    private readonly prices: PriceTable | undefined,
  ) {}

  /**
   * One call's cost (null when the model has no price): the API's usage where it sent some, else
   * the local estimate of the input and of the reply's tokens.
   */
  callCost(usage: TokenUsage | null, estimate: { total: number }, estimatedOutput: number): number | null {
    const u = usage ?? { inputTokens: estimate.total, cachedInputTokens: 0, outputTokens: estimatedOutput };
    const price = priceFor(this.model, this.prices);
    return price ? costUsd(u, price) : null;
  }
}
