/**
 * Between episodes, a full GC (the runner starts workers with --expose-gc) every EVERY episodes,
 * or sooner once the process has grown past its last collected size by a margin. An episode leaves
 * garbage (images, PNG buffers, contexts, disposed sandboxes) that V8, far from its heap limit, would
 * keep for many episodes, and GPU and WASM objects are freed only with their JS wrappers: left to
 * pile up, their native memory is freed late and fragmented, and RSS climbs to a higher plateau
 * that later collections do not bring down (issue 18: a worker ≤ 400 MiB, flat).
 * Measured (60 episodes, every task, images, JavaScript cells, load ~18 on 2 cores): a collection
 * after every episode 326 → 348 MiB (episode 20 → 60), peak 378, ~300 ms per collection under that
 * load; after every second 340 → 370, peak 393, half the cost; only once RSS grew 8% past the last
 * collected size 397 → 488, peak 488 (5 collections). Every second episode keeps the worker under
 * its target at half the time on the runner's critical path.
 */
export class BetweenEpisodesCollector {
  /** RSS right after the last forced collection (0: none yet). */
  private floorBytes = 0;
  private sinceLast = 0;
  collections = 0;
  checks = 0;

  constructor(
    private readonly everyEpisodes = 2,
    private readonly growthFraction = 0.04,
    private readonly minGrowthBytes = 16 * 2 ** 20,
    private readonly rss: () => number = () => process.memoryUsage.rss(),
    private readonly gc: (() => void) | undefined = (globalThis as { gc?: () => void }).gc,
  ) {}

  /** Collects when due; true when it did. */
  afterEpisode(): boolean {
    this.checks++;
    if (!this.gc) return false;
    this.sinceLast++;
    const grown = this.rss() > this.floorBytes + Math.max(this.minGrowthBytes, this.floorBytes * this.growthFraction);
    if (this.floorBytes > 0 && this.sinceLast < this.everyEpisodes && !grown) return false;
    this.gc();
    this.collections++;
    this.sinceLast = 0;
    this.floorBytes = this.rss();
    return true;
  }
}
