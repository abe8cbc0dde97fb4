/**
 * Between episodes, a full GC only once the process has grown past its last collected size by
 * GROWTH_BEFORE_COLLECT (the runner starts workers with --expose-gc). An episode leaves garbage
 * (images, PNG buffers, contexts, disposed sandboxes) that V8, far from its heap limit, would keep
 * for many episodes, and GPU and WASM objects are freed only with their JS wrappers, so without a
 * collection RSS creeps up (issue 18: ≤ 400 MiB, flat). A forced full GC costs 45–150 ms, as much
 * as a short episode, and on the runner's critical path; collecting after growth bounds RSS at the
 * collected floor plus the margin while paying that cost every few episodes instead of every one.
 */
export class BetweenEpisodesCollector {
  /** RSS right after the last forced collection (0: none yet). */
  private floorBytes = 0;
  collections = 0;
  checks = 0;

  constructor(
    private readonly growthFraction = 0.08,
    private readonly minGrowthBytes = 24 * 2 ** 20,
    private readonly rss: () => number = () => process.memoryUsage.rss(),
    private readonly gc: (() => void) | undefined = (globalThis as { gc?: () => void }).gc,
  ) {}

  /** Collects when due; true when it did. */
  afterEpisode(): boolean {
    this.checks++;
    if (!this.gc) return false;
    const now = this.rss();
    if (this.floorBytes > 0 && now <= this.floorBytes + Math.max(this.minGrowthBytes, this.floorBytes * this.growthFraction)) return false;
    this.gc();
    this.collections++;
    this.floorBytes = this.rss();
    return true;
  }
}
