import { useEffect, useRef } from 'react';
import type { VerdictEvent } from '../../src-shared/episode';
import { fmtTokens } from '../app/format';
import { VerdictBadge } from './VerdictBadge';
import { EmptyState } from '../app/Pane';
import type { CallView } from '../episode/view';

/** One mark per model call, coloured by kind; click or ←/→ to move between calls. */
export function Timeline({ calls, selected, onSelect, verdict }: { calls: CallView[]; selected: number; onSelect(i: number): void; verdict: VerdictEvent | null }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      // Arrow keys belong to the editor or a form field when one has focus.
      if (target && (target.closest('.monaco-editor') || ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName))) return;
      if (e.key === 'ArrowRight') onSelect(selected + 1);
      else if (e.key === 'ArrowLeft') onSelect(selected - 1);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [selected, onSelect]);

  const marks = useRef<HTMLDivElement>(null);
  useEffect(() => {
    marks.current?.querySelector('.mark.selected')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [selected, calls.length]);

  if (calls.length === 0) return <EmptyState>One mark per model call.</EmptyState>;
  return (
    <div className="timeline" data-testid="timeline">
      <button onClick={() => onSelect(selected - 1)} disabled={selected <= 0} aria-label="previous call">◀</button>
      <div className="marks" ref={marks}>
        {calls.map((c, i) => (
          <button
            key={c.call}
            className={`mark kind-${c.kind} ${i === selected ? 'selected' : ''} ${i <= selected ? 'past' : ''}`}
            onClick={() => onSelect(i)}
            title={`call ${c.call}: ${c.kind} · ${fmtTokens(c.cumulativeInputTokens)} input tokens so far`}
            data-testid="timeline-mark"
            data-kind={c.kind}
          />
        ))}
      </div>
      <button onClick={() => onSelect(selected + 1)} disabled={selected >= calls.length - 1} aria-label="next call">▶</button>
      <div className="timeline-info">
        <span>call {selected + 1}/{calls.length}</span>
        {verdict && <VerdictBadge verdict={verdict} testId="verdict" />}
      </div>
      <div className="legend">
        {(['cell', 'tool', 'image', 'error', 'finish'] as const).map((k) => (
          <span key={k}><i className={`swatch kind-${k}`} />{k}</span>
        ))}
      </div>
    </div>
  );
}
