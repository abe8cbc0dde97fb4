/**
 * mulberry32: a small, fast, seedable PRNG, identical on every platform. One implementation for
 * task instances, the offline agent's slips and the report's bootstrap, so a seed means the same
 * stream everywhere.
 */
export function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
