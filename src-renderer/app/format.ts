import type { CellLanguage } from '../../src-shared/episode';

/** A cell language as the studio names it. */
export const CELL_LANGUAGE_LABELS: Record<CellLanguage, string> = { javascript: 'JavaScript', python: 'Python' };

export function fmtTokens(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  if (n < 1000) return String(n);
  if (n < 100_000) return `${(n / 1000).toFixed(1)}k`;
  return `${Math.round(n / 1000)}k`;
}

/** Unknown (no price for the model) reads the same everywhere, never as $0. */
export function fmtUsd(n: number | null | undefined): string {
  if (n === null || n === undefined) return 'cost unknown';
  if (n === 0) return '$0';
  if (n < 0.01) return `$${n.toFixed(4)}`;
  return `$${n.toFixed(3)}`;
}

export function fmtMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} m ${Math.round((ms % 60_000) / 1000)} s`;
}
