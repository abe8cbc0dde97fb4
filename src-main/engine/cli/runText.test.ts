import { describe, expect, it } from 'vitest';
import { verdictLine } from './commands/run';

describe('robocell run: the verdict line', () => {
  it('says the outcome once where the finish kind is the same word, and both where it adds', () => {
    expect(verdictLine({ success: true, outcome: 'success', finish: 'success', reason: 'the task was solved' })).toBe('SUCCESS — success: the task was solved');
    expect(verdictLine({ success: true, outcome: 'success', finish: 'model-finished', reason: 'r' })).toBe('SUCCESS — success (model-finished): r');
    expect(verdictLine({ success: false, outcome: 'budget-spent', finish: 'budget-calls', reason: 'r' })).toBe('FAILURE — budget spent (budget-calls): r');
    expect(verdictLine({ success: false, outcome: 'stopped', finish: 'stopped', reason: 'r' })).toBe('FAILURE — stopped by the user: r');
  });
});
