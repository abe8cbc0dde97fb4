import { describe, expect, it } from 'vitest';
import { FinishKind } from './schema';
import { describeOutcome, outcomeOf, outcomeOfFinish, OUTCOME_LABELS } from './outcome';

describe('outcome vocabulary', () => {
  it('maps every finish kind of the loop onto one outcome', () => {
    const got = Object.fromEntries(FinishKind.options.map((f) => [f, outcomeOf({ success: false, finish: f })]));
    expect(got).toEqual({
      'model-finished': 'task-failure',
      success: 'task-failure',
      'budget-calls': 'budget-spent',
      'budget-wall': 'budget-spent',
      'budget-steps': 'budget-spent',
      'model-error': 'model-error',
      stopped: 'stopped',
      error: 'engine-error',
    });
    for (const f of FinishKind.options) expect(OUTCOME_LABELS[outcomeOfFinish(f)]).toBeTruthy();
  });
  it('a judged success is a success however it ended; no verdict is running unless known dead', () => {
    expect(outcomeOf({ success: true, finish: 'model-finished' })).toBe('success');
    expect(outcomeOf({ success: true, finish: 'success' })).toBe('success');
    expect(outcomeOf(null)).toBe('running');
    expect(outcomeOf(null, false)).toBe('engine-error');
  });
  it('names the budget that ran out', () => {
    expect(describeOutcome({ success: false, finish: 'budget-steps' })).toBe('budget spent (sim steps)');
    expect(describeOutcome({ success: false, finish: 'stopped' })).toBe('stopped by the user');
  });
});
