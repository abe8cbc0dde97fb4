/** Per-episode totals from the recorded calls; the API's usage is the truth, the estimate its fallback. */
import type { TokenUsage, Totals } from '../../../src-shared/episode';
import { costUsd, priceFor, type PriceTable } from '../../../src-shared/tokens';

export class Tally {
  llmCalls = 0;
  inputTokens = 0;
  cachedInputTokens = 0;
  outputTokens = 0;
  imageTokens = 0;
  estimatedInputTokens = 0;
  cost: number | null = 0;
  actions = 0;

  constructor(
    private readonly model: string,
    private readonly prices: PriceTable | undefined,
  ) {}

  /** Adds one call; returns its cost (null when the model has no price). */
  addCall(usage: TokenUsage | null, estimate: { total: number; imageTokens: number }, estimatedOutput: number): number | null {
    this.llmCalls++;
    const u = usage ?? { inputTokens: estimate.total, cachedInputTokens: 0, outputTokens: estimatedOutput };
    this.inputTokens += u.inputTokens;
    this.cachedInputTokens += u.cachedInputTokens;
    this.outputTokens += u.outputTokens;
    this.imageTokens += estimate.imageTokens;
    this.estimatedInputTokens += estimate.total;
    const price = priceFor(this.model, this.prices);
    const c = price ? costUsd(u, price) : null;
    this.cost = c === null || this.cost === null ? null : this.cost + c;
    return c;
  }

  totals(simSteps: number, wallMs: number): Totals {
    return {
      llmCalls: this.llmCalls,
      inputTokens: this.inputTokens,
      cachedInputTokens: this.cachedInputTokens,
      outputTokens: this.outputTokens,
      imageTokens: this.imageTokens,
      estimatedInputTokens: this.estimatedInputTokens,
      costUsd: this.cost,
      simSteps,
      wallMs,
      actions: this.actions,
    };
  }
}
