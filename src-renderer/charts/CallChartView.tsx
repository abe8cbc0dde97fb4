import { useEffect, useRef } from 'react';
import { CallChart, type CallChartOptions, type CallSeries } from './CallChart';

/** React mount point for one CallChart; the chart lives as long as the component. */
export function CallChartView({ series, selected, testId, ...opts }: CallChartOptions & { series: CallSeries[]; selected: number; testId?: string }) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<CallChart | null>(null);
  const onSelect = useRef(opts.onSelect);
  onSelect.current = opts.onSelect;
  useEffect(() => {
    const c = new CallChart(host.current as HTMLDivElement, { ...opts, onSelect: (i) => onSelect.current?.(i) });
    chart.current = c;
    return () => {
      c.dispose();
      chart.current = null;
    };
    // Created once; data and selection are applied below.
  }, []);
  useEffect(() => chart.current?.setData(series, selected), [series]);
  useEffect(() => chart.current?.setSelected(selected), [selected]);
  return <div className="call-chart" ref={host} data-testid={testId} data-calls={Math.max(0, ...series.map((s) => s.values.length))} />;
}
