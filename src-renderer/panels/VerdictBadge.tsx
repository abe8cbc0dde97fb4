import type { VerdictEvent } from '../../src-shared/episode';

/** success / failure, or how the episode was cut short (stopped, out of budget, model error). */
export function VerdictBadge({ verdict, testId }: { verdict: Pick<VerdictEvent, 'success' | 'finish' | 'reason'>; testId?: string }) {
  const label = verdict.success ? 'success' : verdict.finish === 'stopped' ? 'stopped' : verdict.finish.startsWith('budget') ? 'out of budget' : verdict.finish === 'model-error' ? 'model error' : 'failure';
  const cls = verdict.success ? 'ok' : verdict.finish === 'stopped' ? 'warn' : 'bad';
  return <span className={`badge ${cls}`} title={verdict.reason} data-testid={testId} data-finish={verdict.finish}>{label}</span>;
}
