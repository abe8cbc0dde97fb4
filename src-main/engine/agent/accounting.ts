/** Per-episode totals from the recorded calls; the API's usage is the truth, the estimate its fallback. */
import type { TokenUsage, Totals, UsageSource } from '../../../src-shared/episode';
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
  /** Calls by where their usage came from, and the estimate beside the billed input on calls that had usage. */
  private readonly sources = { provider: 0, simulated: 0, estimate: 0 };
  private gapEstimated = 0;
  private gapBilled = 0;

  constructor(
    private readonly model: string,
    private readonly prices: PriceTable | undefined,
  ) {}

  /** Adds one call; returns its cost (null when the model has no price). */
  addCall(usage: TokenUsage | null, estimate: { total: number; imageTokens: number }, estimatedOutput: number): number | null {
    this.llmCalls++;
    const u = usage ?? { inputTokens: estimate.total, cachedInputTokens: 0, outputTokens: estimatedOutput };
    this.sources[usage === null ? 'estimate' : usage.simulated ? 'simulated' : 'provider']++;
    if (usage) {
      this.gapEstimated += estimate.total;
      this.gapBilled += usage.inputTokens;
    }
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

  usageSource(): UsageSource {
    const used = (Object.keys(this.sources) as Array<keyof typeof this.sources>).filter((k) => this.sources[k] > 0);
    return used.length === 1 ? used[0] : used.length === 0 ? 'estimate' : 'mixed';
  }

  totals(simSteps: number, wallMs: number): Totals {
    const billedCalls = this.sources.provider + this.sources.simulated;
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
      usageSource: this.usageSource(),
      estimateGap: { calls: billedCalls, estimatedInputTokens: this.gapEstimated, billedInputTokens: this.gapBilled, ratio: this.gapBilled > 0 ? this.gapEstimated / this.gapBilled : null },
    };
  }
}
