import { describe, expect, it } from 'vitest';
import { RestartPolicy } from './restartPolicy';

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

function delays(policy: RestartPolicy, c: ReturnType<typeof clock>, n: number, runMs: number): (number | string)[] {
  const out: (number | string)[] = [];
  for (let i = 0; i < n; i++) {
    policy.started();
    c.advance(runMs);
    const d = policy.failed();
    out.push(d.action === 'restart' ? d.delayMs : 'give-up');
    if (d.action === 'restart') c.advance(d.delayMs);
  }
  return out;
}

describe('RestartPolicy', () => {
  it('doubles the delay from 0.5 s up to 30 s, then gives up at the Nth rapid failure', () => {
    const c = clock();
    const policy = new RestartPolicy({ now: c.now, maxRapidFailures: 10 });
    expect(delays(policy, c, 10, 100)).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 'give-up']);
  });

  it('says why it gave up', () => {
    const c = clock();
    const policy = new RestartPolicy({ now: c.now, maxRapidFailures: 2 });
    policy.started();
    expect(policy.failed().action).toBe('restart');
    policy.started();
    const d = policy.failed();
    expect(d).toMatchObject({ action: 'give-up' });
    expect(d.action === 'give-up' && d.message).toMatch(/failed 2 times in a row, each within 60 s of starting/);
  });

  it('starts the back-off over after a run of at least a minute', () => {
    const c = clock();
    const policy = new RestartPolicy({ now: c.now });
    expect(delays(policy, c, 4, 1000)).toEqual([500, 1000, 2000, 4000]);
    expect(delays(policy, c, 1, 60_000)).toEqual([500]);
    expect(delays(policy, c, 2, 59_999)).toEqual([1000, 2000]);
  });

  it('does not give up while every run is stable', () => {
    const c = clock();
    const policy = new RestartPolicy({ now: c.now, maxRapidFailures: 3 });
    expect(delays(policy, c, 20, 120_000).every((d) => d === 500)).toBe(true);
  });

  it('forgets failures on reset (a manual restart)', () => {
    const c = clock();
    const policy = new RestartPolicy({ now: c.now, maxRapidFailures: 3 });
    expect(delays(policy, c, 2, 10)).toEqual([500, 1000]);
    policy.reset();
    expect(delays(policy, c, 3, 10)).toEqual([500, 1000, 'give-up']);
  });

  it('refuses nonsense options', () => {
    expect(() => new RestartPolicy({ now: () => 0, initialDelayMs: 0 })).toThrow(/initialDelayMs/);
    expect(() => new RestartPolicy({ now: () => 0, initialDelayMs: 100, maxDelayMs: 50 })).toThrow(/maxDelayMs/);
    expect(() => new RestartPolicy({ now: () => 0, maxRapidFailures: 0 })).toThrow(/maxRapidFailures/);
  });
});
