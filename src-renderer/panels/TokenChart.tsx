import type { CallView } from '../episode/view';

/** Input tokens per call as bars (API usage where known, else the estimate); the selected call is highlighted. */
export function TokenChart({ calls, selected, onSelect, height = 56 }: { calls: CallView[]; selected: number; onSelect(i: number): void; height?: number }) {
  if (calls.length === 0) return null;
  const values = calls.map((c) => c.reply?.usage?.inputTokens ?? c.request.estimate.total);
  const max = Math.max(...values, 1);
  const w = 100 / calls.length;
  return (
    <svg className="token-chart" viewBox={`0 0 100 ${height}`} preserveAspectRatio="none" height={height} data-testid="token-chart" role="img" aria-label="input tokens per call">
      {values.map((v, i) => {
        const h = (v / max) * (height - 2);
        return (
          <rect key={i} x={i * w + w * 0.1} width={w * 0.8} y={height - h} height={h} className={i === selected ? 'bar selected' : 'bar'} onClick={() => onSelect(i)}>
            <title>{`call ${calls[i].call}: ${v} input tokens`}</title>
          </rect>
        );
      })}
    </svg>
  );
}
