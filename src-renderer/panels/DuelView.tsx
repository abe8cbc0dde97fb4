import { useEffect, useMemo, useState } from 'react';
import type { ActionEvent } from '../../src-shared/episode';
import { useClient } from '../app/clientContext';
import { VerdictBadge } from './VerdictBadge';
import { fmtTokens, fmtUsd } from '../app/format';
import { buildEpisodeView, type EpisodeView } from '../episode/view';
import { notify } from '../store/run';
import { actionsThrough } from './moments';
import { ScenePanel } from './ScenePanel';

/** Two episodes of one instance side by side, stepped together, with their cumulative input tokens. */
export function DuelView({ leftId, rightId, onClose, initialStep }: { leftId: string; rightId: string; onClose(): void; initialStep?: number }) {
  const client = useClient();
  const [views, setViews] = useState<[EpisodeView, EpisodeView] | null>(null);
  const [step, setStep] = useState(initialStep ?? 0);
  useEffect(() => {
    let cancelled = false;
    Promise.all([leftId, rightId].map((id) => client.request('episode/open', { episodeId: id }))).then(
      ([a, b]) => !cancelled && setViews([buildEpisodeView(a.meta, a.events), buildEpisodeView(b.meta, b.events)]),
      (err: Error) => notify('error', `duel: ${err.message}`),
    );
    return () => {
      cancelled = true;
    };
  }, [client, leftId, rightId]);
  const maxStep = views ? Math.max(views[0].calls.length, views[1].calls.length) - 1 : 0;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowRight') setStep((s) => Math.min(maxStep, s + 1));
      else if (e.key === 'ArrowLeft') setStep((s) => Math.max(0, s - 1));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [maxStep]);
  if (!views) return <div className="duel" data-testid="duel">Loading…</div>;
  const sameInstance = JSON.stringify(views[0].meta.instance) === JSON.stringify(views[1].meta.instance);
  return (
    <div className="duel" data-testid="duel">
      <header className="duel-header">
        <b>Duel</b>
        {!sameInstance && <span className="badge warn">different instances</span>}
        <button onClick={() => setStep(Math.max(0, step - 1))} disabled={step <= 0}>◀</button>
        <input type="range" min={0} max={maxStep} value={step} onChange={(e) => setStep(Number(e.target.value))} data-testid="duel-slider" />
        <button onClick={() => setStep(Math.min(maxStep, step + 1))} disabled={step >= maxStep} data-testid="duel-next">▶</button>
        <span>call {step + 1}</span>
        <span className="spacer" />
        <button onClick={onClose} data-testid="duel-close">Close duel</button>
      </header>
      <div className="duel-sides">
        {views.map((v) => {
          const k = Math.min(step, v.calls.length - 1);
          const c = v.calls[k];
          return (
            <section key={v.meta.id} className="duel-side" data-testid="duel-side">
              <div className="duel-title">
                <b>{v.meta.arm === 'code' ? 'code arm' : 'tool-calling arm'}</b> · {v.meta.model.label}
                {v.verdict && <VerdictBadge verdict={v.verdict} />}
              </div>
              <ScenePanel episodeId={v.meta.id} atAction={actionsThrough(v, k)} targets={[]} compact />
              <ActionSummary actions={c?.actions ?? []} />
              <div className="duel-stats">
                {step >= v.calls.length ? <span className="muted">finished after {v.calls.length} calls · </span> : null}
                call {k + 1}/{v.calls.length} · {fmtTokens(c?.cumulativeInputTokens)} input tokens so far · {fmtUsd(c?.cumulativeCostUsd)}
              </div>
            </section>
          );
        })}
      </div>
      <CumulativeChart views={views} step={step} />
    </div>
  );
}

const COLORS = ['#5aa9ff', '#e8b04a'];

/** What the current call's actions did, compactly: the outcome to compare side by side. */
function ActionSummary({ actions }: { actions: ActionEvent[] }) {
  return (
    <div className="duel-actions" data-testid="duel-actions">
      {actions.map((a) => (
        <div key={a.index} className={a.ok ? '' : 'bad'}>
          <b>{a.kind === 'cell' ? `cell ${a.index}` : a.name}</b>{' '}
          <span className="muted">{a.ok ? 'ok' : 'error'} · {a.simSteps} steps</span>
          <pre>{(a.cell ? [a.cell.stdout, a.cell.error ? `${a.cell.error.type}: ${a.cell.error.message}` : '', a.cell.stop?.message ?? ''].filter(Boolean).join('\n') : a.resultText).slice(0, 600)}</pre>
        </div>
      ))}
    </div>
  );
}

function CumulativeChart({ views, step }: { views: EpisodeView[]; step: number }) {
  const { maxCalls, maxTokens } = useMemo(() => ({
    maxCalls: Math.max(...views.map((v) => v.calls.length), 1),
    maxTokens: Math.max(...views.map((v) => v.calls.at(-1)?.cumulativeInputTokens ?? 0), 1),
  }), [views]);
  const W = 600;
  const H = 120;
  const x = (i: number) => (maxCalls <= 1 ? 0 : (i / (maxCalls - 1)) * (W - 10)) + 5;
  const y = (t: number) => H - 5 - (t / maxTokens) * (H - 20);
  return (
    <figure className="duel-chart" data-testid="duel-chart">
      <svg viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none">
        <line x1={x(step)} x2={x(step)} y1={0} y2={H} className="cursor" />
        {views.map((v, vi) => (
          <polyline key={v.meta.id} fill="none" stroke={COLORS[vi]} strokeWidth={2} points={v.calls.map((c, i) => `${x(i)},${y(c.cumulativeInputTokens)}`).join(' ')} />
        ))}
      </svg>
      <figcaption>
        Cumulative input tokens per call:{' '}
        {views.map((v, vi) => (
          <span key={v.meta.id} style={{ color: COLORS[vi] }}>
            {v.meta.arm} {fmtTokens(v.calls.at(-1)?.cumulativeInputTokens ?? 0)} in {v.calls.length} calls{vi === 0 ? ' · ' : ''}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
