import { describe, expect, it } from 'vitest';
import { BetweenEpisodesCollector } from './collector';

const MiB = 2 ** 20;

describe('BetweenEpisodesCollector', () => {
  it('collects after the first episode, then every second episode while the process stays near its collected size', () => {
    let rss = 300 * MiB;
    const c = new BetweenEpisodesCollector(2, 0.04, 16 * MiB, () => rss, () => (rss = 300 * MiB));
    const collected: boolean[] = [];
    for (let i = 0; i < 7; i++) {
      rss += 2 * MiB; // each episode leaves 2 MiB
      collected.push(c.afterEpisode());
    }
    expect(collected).toEqual([true, false, true, false, true, false, true]);
    expect(c).toMatchObject({ collections: 4, checks: 7 });
  });

  it('collects sooner when an episode grew the process past the margin (4% of the floor, at least 16 MiB)', () => {
    let rss = 1000 * MiB;
    const c = new BetweenEpisodesCollector(3, 0.04, 16 * MiB, () => rss, () => (rss = 1000 * MiB));
    c.afterEpisode(); // the floor: 1000 MiB, margin 40 MiB
    rss += 39 * MiB;
    expect(c.afterEpisode()).toBe(false);
    rss += 2 * MiB;
    expect(c.afterEpisode()).toBe(true);
    // on a small floor the margin is the 16 MiB minimum
    let small = 100 * MiB;
    const d = new BetweenEpisodesCollector(10, 0.04, 16 * MiB, () => small, () => (small = 100 * MiB));
    d.afterEpisode();
    small += 15 * MiB;
    expect(d.afterEpisode()).toBe(false);
    small += 2 * MiB;
    expect(d.afterEpisode()).toBe(true);
  });

  it('does nothing without an exposed gc', () => {
    const c = new BetweenEpisodesCollector(2, 0.04, 16 * MiB, () => 1, undefined);
    expect(c.afterEpisode()).toBe(false);
    expect(c.afterEpisode()).toBe(false);
    expect(c).toMatchObject({ collections: 0, checks: 2 });
  });
});
