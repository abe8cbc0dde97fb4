import { useCallback, useEffect, useMemo, useState } from 'react';
import type { EndpointSettings } from '../../src-shared/protocol';
import { CellsPanel, type EditRequest } from '../panels/CellsPanel';
import { ContextPanel } from '../panels/ContextPanel';
import { DuelView } from '../panels/DuelView';
import { LibraryPanel } from '../panels/LibraryPanel';
import { actionsThrough, targetsOf } from '../panels/moments';
import { RunPanel } from '../panels/RunPanel';
import { ScenePanel } from '../panels/ScenePanel';
import { ScratchCell } from '../panels/ScratchCell';
import { SettingsDialog } from '../panels/SettingsDialog';
import { Timeline } from '../panels/Timeline';
import { useConnection } from '../store/connection';
import { notify, useRun } from '../store/run';
import { useStudio } from '../store/studio';
import { useClient } from './clientContext';
import { ConnectionBadge } from './ConnectionBadge';
import { Pane } from './Pane';
import { openEpisode, refreshLibrary, useEngineSync } from './useEngineSync';
import { useDemo } from './useDemo';
import { useShellBridge } from './useShellBridge';

export function App() {
  const client = useClient();
  useEngineSync(client);
  const connected = useConnection((s) => s.state === 'open');
  const { episode, selectedCall, selectCall, follow } = useStudio();
  const notice = useRun((s) => s.notice);
  const [leftTab, setLeftTab] = useState<'run' | 'library'>('run');
  const [cellsTab, setCellsTab] = useState<'cells' | 'scratch'>('cells');
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [endpoint, setEndpoint] = useState<EndpointSettings | null>(null);
  const [duel, setDuel] = useState<{ left: string; right: string; step?: number } | null>(null);
  const [forking, setForking] = useState(false);
  useDemo(client, (left, right, step) => setDuel({ left, right, step }));
  useShellBridge(client, useCallback(() => setLeftTab('library'), []));

  useEffect(() => {
    if (connected) client.request('settings/get', {}).then((s) => setEndpoint(s.endpoint), () => undefined);
  }, [client, connected]);

  const view = episode?.view ?? null;
  const episodeId = episode?.meta.id ?? null;
  const fileUrl = useCallback(
    (file: string) => (episodeId ? `/episodes/${encodeURIComponent(episodeId)}/files/${file.split('/').map(encodeURIComponent).join('/')}?token=${encodeURIComponent(client.token)}` : ''),
    [client, episodeId],
  );
  const liveFollow = !!episode?.live && follow;
  const atAction = view && !liveFollow ? actionsThrough(view, selectedCall) : null;
  const targets = useMemo(() => (view ? targetsOf(view, selectedCall) : []), [view, selectedCall]);

  const replayEdited = async (req: EditRequest, continueWithModel: boolean) => {
    if (!episodeId) return;
    setForking(true);
    try {
      const r = await client.request('episode/fork', { episodeId, action: req.action.index, edited: req.edited, continueWithModel }, { timeoutMs: 10 * 60_000 });
      if (!r.hashesMatched) notify('error', `replay diverged from the recording at action ${r.mismatchAt}: the fork runs from the re-executed state`);
      else notify('info', `replayed ${req.action.index - 1} recorded actions with matching state hashes; the edited action ran in ${r.episodeId}`);
      await refreshLibrary(client);
      if (continueWithModel) await openEpisode(client, r.episodeId);
      else setDuel({ left: episodeId, right: r.episodeId, step: selectedCall });
    } catch (err) {
      notify('error', `replay failed: ${(err as Error).message}`);
    } finally {
      setForking(false);
    }
  };

  const endpointLabel = endpoint?.model ? `${endpoint.model} @ ${endpoint.baseUrl}` : null;
  return (
    <div className="studio">
      <header className="topbar">
        <div className="brand"><span className="logo">◧</span> Robocell Studio</div>
        {episode && (
          <div className="episode-title" data-testid="episode-title">
            {episode.meta.instance.taskId} · {episode.meta.instance.variant} · seed {episode.meta.instance.seed} · {episode.meta.arm} arm ·{' '}
            <span className={episode.meta.model.scripted ? 'badge scripted' : 'badge'}>{episode.meta.model.label}</span>
            {episode.live && <span className="badge live">live</span>}
          </div>
        )}
        <div className="spacer" />
        {notice && <div className={`notice ${notice.kind}`} data-testid="notice" onClick={() => useRun.setState({ notice: null })}>{notice.text}</div>}
        <button onClick={() => setSettingsOpen(true)} data-testid="open-settings">Settings</button>
        <ConnectionBadge />
      </header>
      {duel ? (
        <DuelView leftId={duel.left} rightId={duel.right} initialStep={duel.step} onClose={() => setDuel(null)} />
      ) : (
        <main className="layout">
          <Pane title={leftTab === 'run' ? 'Run' : 'Library'} className="area-run" testId="pane-run" actions={
            <div className="tabs">
              <button className={leftTab === 'run' ? 'active' : ''} onClick={() => setLeftTab('run')}>Run</button>
              <button className={leftTab === 'library' ? 'active' : ''} onClick={() => setLeftTab('library')} data-testid="tab-library">Library</button>
            </div>
          }>
            {leftTab === 'run' ? <RunPanel endpointLabel={endpointLabel} /> : <LibraryPanel onDuel={(left, right) => setDuel({ left, right })} />}
          </Pane>
          <Pane title="Scene" className="area-scene" testId="pane-scene">
            <ScenePanel episodeId={episodeId} atAction={atAction} targets={targets} />
          </Pane>
          <Pane title="Context" className="area-context" testId="pane-context">
            <ContextPanel view={view} selected={selectedCall} onSelect={selectCall} fileUrl={fileUrl} />
          </Pane>
          <Pane title={cellsTab === 'cells' ? (episode?.meta.arm === 'tools' ? 'Tool calls' : 'Cells') : 'Scratch cell'} className="area-cells" testId="pane-cells" actions={
            <div className="tabs">
              <button className={cellsTab === 'cells' ? 'active' : ''} onClick={() => setCellsTab('cells')}>{episode?.meta.arm === 'tools' ? 'Tool calls' : 'Cells'}</button>
              <button className={cellsTab === 'scratch' ? 'active' : ''} onClick={() => setCellsTab('scratch')} data-testid="tab-scratch">Scratch</button>
            </div>
          }>
            {cellsTab === 'cells' ? (
              <CellsPanel view={view} selected={selectedCall} onSelect={selectCall} fileUrl={fileUrl} busy={forking || !!episode?.live}
                onReplayEdited={episode && !episode.live ? replayEdited : undefined} />
            ) : (
              <ScratchCell episodeId={episodeId} />
            )}
          </Pane>
          <Pane title="Timeline" className="area-timeline" testId="pane-timeline">
            <Timeline calls={view?.calls ?? []} selected={selectedCall} onSelect={selectCall} verdict={view?.verdict ?? null} />
          </Pane>
        </main>
      )}
      {settingsOpen && <SettingsDialog onClose={() => setSettingsOpen(false)} onSaved={setEndpoint} />}
    </div>
  );
}
