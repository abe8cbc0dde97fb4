import { describe, expect, it } from 'vitest';
import { BetweenEpisodesCollector } from './collector';

const MiB = 2 ** 20;

describe('BetweenEpisodesCollector', () => {
  it('collects after the first episode, then only once RSS has grown past the collected floor by the margin', () => {
    let rss = 300 * MiB;
    const gcs: number[] = [];
    // a collection gives back what the episodes left behind, down to 300 MiB
    const c = new BetweenEpisodesCollector(0.08, 24 * MiB, () => rss, () => {
      gcs.push(rss);
      rss = 300 * MiB;
    });
    expect(c.afterEpisode()).toBe(true); // the first sets the floor
    const grew: boolean[] = [];
    for (let i = 0; i < 10; i++) {
      rss += 5 * MiB; // each episode leaves 5 MiB
      grew.push(c.afterEpisode());
    }
    // margin: max(24 MiB, 8% of 300 MiB = 24 MiB): the 5th episode's 25 MiB is past it
    expect(grew).toEqual([false, false, false, false, true, false, false, false, false, true]);
    expect(c.collections).toBe(3);
    expect(Math.max(...gcs)).toBeLessThanOrEqual(300 * MiB + 25 * MiB);
  });

  it('uses the fraction of a large floor as its margin', () => {
    let rss = 1000 * MiB;
    const c = new BetweenEpisodesCollector(0.08, 24 * MiB, () => rss, () => undefined);
    c.afterEpisode();
    rss += 79 * MiB;
    expect(c.afterEpisode()).toBe(false);
    rss += 2 * MiB;
    expect(c.afterEpisode()).toBe(true);
  });

  it('does nothing without an exposed gc', () => {
    const c = new BetweenEpisodesCollector(0.08, 24 * MiB, () => 1, undefined);
    expect(c.afterEpisode()).toBe(false);
    expect(c).toMatchObject({ collections: 0, checks: 1 });
  });
});
