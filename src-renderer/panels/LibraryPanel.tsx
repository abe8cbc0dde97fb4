import { useMemo, useState } from 'react';
import type { EpisodeSummary } from '../../src-shared/protocol';
import { useClient } from '../app/clientContext';
import { fmtTokens, fmtUsd } from '../app/format';
import { openEpisode, refreshLibrary } from '../app/useEngineSync';
import { notify, useRun } from '../store/run';
import { useStudio } from '../store/studio';

type SortKey = 'createdAt' | 'task' | 'arm' | 'llmCalls' | 'inputTokens' | 'costUsd' | 'success';

const sorters: Record<SortKey, (a: EpisodeSummary, b: EpisodeSummary) => number> = {
  createdAt: (a, b) => b.createdAt.localeCompare(a.createdAt),
  task: (a, b) => a.instance.taskId.localeCompare(b.instance.taskId) || a.instance.seed - b.instance.seed,
  arm: (a, b) => a.arm.localeCompare(b.arm),
  llmCalls: (a, b) => a.llmCalls - b.llmCalls,
  inputTokens: (a, b) => a.inputTokens - b.inputTokens,
  costUsd: (a, b) => (a.costUsd ?? 0) - (b.costUsd ?? 0),
  success: (a, b) => Number(b.success) - Number(a.success),
};

/** Saved episodes: filter, sort, open, rename, delete, export, import; pick two for a duel. */
export function LibraryPanel({ onDuel }: { onDuel(left: string, right: string): void }) {
  const client = useClient();
  const library = useRun((s) => s.library);
  const openId = useStudio((s) => s.episode?.meta.id);
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<SortKey>('createdAt');
  const [renaming, setRenaming] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);
  const [duelPick, setDuelPick] = useState<string[]>([]);
  const rows = useMemo(() => {
    const f = filter.trim().toLowerCase();
    const match = (e: EpisodeSummary) => !f || [e.name ?? '', e.id, e.instance.taskId, e.arm, e.modelLabel, e.success ? 'success' : 'failure'].some((s) => s.toLowerCase().includes(f));
    return library.filter(match).sort(sorters[sort]);
  }, [library, filter, sort]);

  const act = async (what: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
      await refreshLibrary(client);
    } catch (err) {
      notify('error', `${what} failed: ${(err as Error).message}`);
    }
  };
  const exportEpisode = (id: string) => act('export', async () => {
    const { fileName, json } = await client.request('episode/export', { episodeId: id });
    const url = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = fileName;
    a.click();
    URL.revokeObjectURL(url);
  });
  const importFile = (file: File) => act('import', async () => {
    const { episodeId } = await client.request('episode/import', { json: await file.text() });
    notify('info', `imported ${episodeId}`);
  });
  const toggleDuel = (id: string) => {
    const next = duelPick.includes(id) ? duelPick.filter((x) => x !== id) : [...duelPick, id].slice(-2);
    setDuelPick(next);
  };

  return (
    <div className="library" data-testid="library">
      <div className="library-tools">
        <input placeholder="Filter: task, arm, model, success…" value={filter} onChange={(e) => setFilter(e.target.value)} data-testid="library-filter" />
        <select value={sort} onChange={(e) => setSort(e.target.value as SortKey)} aria-label="sort by">
          <option value="createdAt">newest</option>
          <option value="task">task</option>
          <option value="arm">arm</option>
          <option value="llmCalls">calls</option>
          <option value="inputTokens">input tokens</option>
          <option value="costUsd">cost</option>
          <option value="success">verdict</option>
        </select>
        <label className="button-like">Import<input type="file" accept=".json,application/json" hidden onChange={(e) => e.target.files?.[0] && void importFile(e.target.files[0])} data-testid="library-import" /></label>
      </div>
      {duelPick.length === 2 && <button className="primary wide" onClick={() => onDuel(duelPick[0], duelPick[1])} data-testid="duel-open">Duel the two selected</button>}
      <ul className="episode-list">
        {rows.map((e) => (
          <li key={e.id} className={`episode-row ${e.id === openId ? 'open' : ''}`} data-testid="episode-row" data-episode-id={e.id}>
            <div className="episode-main" onClick={() => void openEpisode(client, e.id)}>
              <span className={`badge ${e.success === null ? '' : e.success ? 'ok' : 'bad'}`}>{e.live ? 'live' : e.success === null ? '—' : e.success ? 'success' : 'failure'}</span>
              {renaming === e.id ? (
                <input autoFocus defaultValue={e.name ?? e.id} onClick={(ev) => ev.stopPropagation()} data-testid="rename-input"
                  onKeyDown={(ev) => {
                    if (ev.key === 'Enter') void act('rename', () => client.request('episode/rename', { episodeId: e.id, name: (ev.target as HTMLInputElement).value })).then(() => setRenaming(null));
                    if (ev.key === 'Escape') setRenaming(null);
                  }} />
              ) : (
                <span className="episode-name">{e.name ?? `${e.instance.taskId} · ${e.instance.variant} · seed ${e.instance.seed}`}</span>
              )}
              <span className="muted small">
                {e.arm} · {e.modelLabel}{e.bundled ? ' · example' : ''}{e.parentId ? ' · fork' : ''} · {e.llmCalls} calls · {fmtTokens(e.inputTokens)} in · {fmtUsd(e.costUsd)}
              </span>
            </div>
            <div className="episode-actions">
              <label title="pick for the duel view"><input type="checkbox" checked={duelPick.includes(e.id)} onChange={() => toggleDuel(e.id)} data-testid="duel-pick" /> duel</label>
              <button onClick={() => setRenaming(e.id)} disabled={e.bundled}>Rename</button>
              <button onClick={() => void exportEpisode(e.id)}>Export</button>
              {confirmDelete === e.id ? (
                <>
                  <button className="danger" onClick={() => void act('delete', () => client.request('episode/delete', { episodeId: e.id })).then(() => setConfirmDelete(null))} data-testid="delete-confirm">Delete for good</button>
                  <button onClick={() => setConfirmDelete(null)}>Keep</button>
                </>
              ) : (
                <button onClick={() => setConfirmDelete(e.id)} disabled={e.bundled || e.live} data-testid="delete">Delete</button>
              )}
            </div>
          </li>
        ))}
        {rows.length === 0 && <li className="muted">No episodes{filter ? ' match the filter' : ' yet'}.</li>}
      </ul>
    </div>
  );
}
