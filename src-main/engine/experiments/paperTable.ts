/**
 * The run beside the paper: per suite and overall, each arm's success with its 95% Wilson interval,
 * McNemar's exact test on the discordant pairs, and on the instances both arms solved the ratios
 * (code ÷ tools, of the totals) of calls, input tokens and cost, in a table next to the paper's
 * published figures, which are labelled as the paper's. The run's model, prices and dates go with it,
 * since the paper's were measured with another model at other prices on other dates.
 */
import type { Arm } from '../../../src-shared/episode';
import { PAPER_FIGURES, pairId, type ExperimentManifest, type ResultRecord, type SessionRecord } from '../../../src-shared/experiments';
import { mcnemarExact, wilson, type Interval } from '../../../src-shared/experiments/stats';
import { priceFor } from '../../../src-shared/tokens';
import type { UsageSourceWord } from '../../../src-shared/tokens/usageWords';
import { suiteOf } from './estimate';

export interface PaperRow {
  /** "overall", or a suite (the task id's first path part; "built-in" for the built-in tasks). */
  scope: string;
  pairs: number;
  success: Record<Arm, { solved: number; rate: number | null; ci95: Interval | null }>;
  mcnemarP: number | null;
  bothSolved: number;
  /** Code ÷ tools of the totals over both-solved pairs; null without such pairs (or an unknown cost). */
  ratios: { llmCalls: number | null; inputTokens: number | null; costUsd: number | null };
}

export interface PaperTable {
  rows: PaperRow[];
  run: {
    model: string;
    prices: { inputPerMTokUsd: number; cachedInputPerMTokUsd: number; outputPerMTokUsd: number } | null;
    /** First and last episode recorded (UTC dates). */
    from: string | null;
    to: string | null;
    /**
     * Episodes by where their token counts came from: a run against the rehearsal endpoint or the
     * offline agent has simulated usage, and its table must not pass for a model's.
     */
    usage: Record<UsageSourceWord, number>;
  };
  paper: typeof PAPER_FIGURES;
}

function row(scope: string, pairs: Array<Record<Arm, ResultRecord>>): PaperRow {
  const arm = (a: Arm) => {
    const solved = pairs.filter((p) => p[a].success).length;
    return { solved, rate: pairs.length ? solved / pairs.length : null, ci95: pairs.length ? wilson(solved, pairs.length) : null };
  };
  const toolsOnly = pairs.filter((p) => p.tools.success && !p.code.success).length;
  const codeOnly = pairs.filter((p) => !p.tools.success && p.code.success).length;
  const both = pairs.filter((p) => p.tools.success && p.code.success);
  const ratio = (f: (r: ResultRecord) => number | null): number | null => {
    let t = 0;
    let c = 0;
    for (const p of both) {
      const a = f(p.tools);
      const b = f(p.code);
      if (a === null || b === null) return null;
      t += a;
      c += b;
    }
    return both.length && t > 0 ? c / t : null;
  };
  return {
    scope,
    pairs: pairs.length,
    success: { tools: arm('tools'), code: arm('code') },
    mcnemarP: pairs.length ? mcnemarExact(toolsOnly, codeOnly) : null,
    bothSolved: both.length,
    ratios: { llmCalls: ratio((r) => r.totals.llmCalls), inputTokens: ratio((r) => r.totals.inputTokens), costUsd: ratio((r) => r.totals.costUsd) },
  };
}

export function paperTable(input: { manifest: ExperimentManifest; records: readonly ResultRecord[]; sessions?: readonly SessionRecord[] }): PaperTable {
  const byPair = new Map<string, Partial<Record<Arm, ResultRecord>>>();
  for (const r of input.records) {
    const id = pairId(r.key);
    byPair.set(id, { ...byPair.get(id), [r.key.arm]: r });
  }
  const pairs = [...byPair.values()].filter((p): p is Record<Arm, ResultRecord> => !!p.tools && !!p.code);
  const suites = [...new Set(pairs.map((p) => suiteOf(p.tools.key.taskId)))].sort();
  const dates = input.records.map((r) => r.finishedAt).sort();
  const price = priceFor(input.manifest.spec.model.name, input.manifest.prices);
  const usage: Record<UsageSourceWord, number> = { provider: 0, simulated: 0, estimate: 0, mixed: 0 };
  // Records from before usageSource was kept say nothing: counted as estimates, the cautious word.
  for (const r of input.records) usage[r.totals.usageSource ?? 'estimate']++;
  return {
    rows: [
      ...suites.map((s) =>
        row(
          s,
          pairs.filter((p) => suiteOf(p.tools.key.taskId) === s),
        ),
      ),
      row('overall', pairs),
    ],
    run: { model: input.manifest.model.label, prices: price, from: dates[0]?.slice(0, 10) ?? null, to: dates.at(-1)?.slice(0, 10) ?? null, usage },
    paper: PAPER_FIGURES,
  };
}

const pct = (x: number | null) => (x === null ? '—' : `${(100 * x).toFixed(1)}%`);
const ci = (c: Interval | null) => (c ? `${(100 * c[0]).toFixed(1)}-${(100 * c[1]).toFixed(1)}%` : '—');
const times = (x: number | null) => (x === null ? '—' : `${x.toFixed(2)}×`);
const p = (x: number | null) => (x === null ? '—' : x < 0.001 ? '<0.001' : x.toFixed(3));

/** The table's cells: one row per scope, then the paper's row. */
function cells(t: PaperTable): string[][] {
  const head = ['', 'pairs', 'tools', '95% CI', 'code', '95% CI', 'McNemar p', 'both solved', 'calls ratio', 'input-token ratio', 'cost ratio'];
  const rows = t.rows.map((r) => [
    r.scope === 'overall' ? 'this run, overall' : `this run, ${r.scope}`,
    String(r.pairs),
    pct(r.success.tools.rate),
    ci(r.success.tools.ci95),
    pct(r.success.code.rate),
    ci(r.success.code.ci95),
    p(r.mcnemarP),
    String(r.bothSolved),
    times(r.ratios.llmCalls),
    times(r.ratios.inputTokens),
    times(r.ratios.costUsd),
  ]);
  const f = t.paper;
  return [
    head,
    ...rows,
    [
      "the paper's published figures",
      String(f.n),
      pct(f.success.tools),
      '—',
      pct(f.success.code),
      '—',
      '—',
      '—',
      times(f.bothSolvedRatios.llmCalls),
      times(f.bothSolvedRatios.inputTokens),
      '—',
    ],
  ];
}

function runLine(t: PaperTable): string {
  const pr = t.run.prices;
  const prices = pr
    ? `$${pr.inputPerMTokUsd} / $${pr.cachedInputPerMTokUsd} cached / $${pr.outputPerMTokUsd} output per million tokens`
    : 'no price in the table';
  return `This run: ${t.run.model}, ${prices}, episodes recorded ${t.run.from ?? '—'} to ${t.run.to ?? '—'}. ${t.paper.label}.`;
}

/** Said above the table when any episode's usage was made up. */
export function simulatedUsageNote(t: PaperTable): string | null {
  const u = t.run.usage;
  const made = u.simulated;
  if (!made) return null;
  const all = u.provider + u.simulated + u.estimate + u.mixed;
  return (
    `REHEARSAL: the token usage of ${made} of ${all} episodes was simulated (the rehearsal endpoint or the offline ` +
    `heuristic agent answered and made it up; no provider billed it), so this run's rows are not ${t.run.model}'s figures`
  );
}

export function paperTableText(t: PaperTable): string {
  const c = cells(t);
  const w = c[0].map((_, i) => Math.max(...c.map((r) => r[i].length)));
  return [
    'Beside the paper (ratios are code ÷ tools of the totals on the instances both arms solved):',
    ...c.map((r) => '  ' + r.map((x, i) => (i === 0 ? x.padEnd(w[i]) : x.padStart(w[i]))).join('  ')),
    `  ${runLine(t)}`,
    ...(simulatedUsageNote(t) ? [`  ${simulatedUsageNote(t)}.`] : []),
  ].join('\n');
}

const esc = (s: string) => s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!);

export function paperTableHtml(t: PaperTable): string {
  const [head, ...rows] = cells(t);
  const tr = (r: string[], paper: boolean) =>
    `<tr${paper ? ' class="paper"' : ''}>${r.map((x, i) => `<td${i === 0 ? ' class="l"' : ''}>${esc(x)}</td>`).join('')}</tr>`;
  const simulated = simulatedUsageNote(t);
  return [
    '<h2 id="paper">Beside the paper</h2>',
    simulated ? `<div class="banner warn" data-testid="usage-simulated">${esc(simulated)}.</div>` : '',
    `<table data-testid="paper-table"><thead><tr>${head.map((h, i) => `<th${i === 0 ? ' class="l"' : ''}>${esc(h)}</th>`).join('')}</tr></thead><tbody>`,
    ...rows.map((r, i) => tr(r, i === rows.length - 1)),
    '</tbody></table>',
    `<p class="muted">Ratios are code ÷ tools of the totals on the instances both arms solved. ${esc(runLine(t))}</p>`,
  ].join('');
}
