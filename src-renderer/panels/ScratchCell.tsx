import { useState } from 'react';
import type { ResultOf } from '../../src-shared/protocol';
import { useClient } from '../app/clientContext';
import { EmptyState } from '../app/Pane';
import { CellView } from '../cells/CellView';
import { useScratchFrame } from '../store/scratchFrame';

const EXAMPLE = `// Ad-hoc code against the robot (Ctrl+Enter runs it)
const s = robo.state();
console.log(JSON.stringify(s));
robo.show('front');`;

/**
 * An editable cell that runs against the live robot (a paused run) or a scratch world of the open
 * episode put at the selected moment; the 3D view then shows the robot as the cell left it.
 */
export function ScratchCell({ episodeId, atAction, live }: { episodeId: string | null; atAction: number | null; live: boolean }) {
  const client = useClient();
  const [code, setCode] = useState(EXAMPLE);
  const [busy, setBusy] = useState(false);
  const [wallSec, setWallSec] = useState(30);
  const [result, setResult] = useState<ResultOf<'scratch/run'> | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!episodeId) return <EmptyState>Open or run an episode to get a robot to talk to.</EmptyState>;
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await client.request('scratch/run', { episodeId, code, maxWallMs: wallSec * 1000, ...(!live && atAction !== null ? { atAction } : {}) }, { timeoutMs: wallSec * 1000 + 60_000 });
      setResult(r);
      if (r.target === 'scratch-world' && r.frame) useScratchFrame.setState({ episodeId, atAction, frame: r.frame });
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  // The cell's own reply then says it was interrupted; a stop that finds nothing running is harmless.
  const stop = () => void client.request('scratch/interrupt', {}).catch((err: Error) => setError(err.message));
  const d = result?.detail;
  return (
    <div className="scratch" data-testid="scratch">
      <CellView code={code} readOnly={false} onChange={setCode} onRun={() => void run()} errorLine={d?.error?.line ?? null} errorMessage={d?.error ? `${d.error.type}: ${d.error.message}` : null} />
      <div className="row scratch-row">
        <button className="primary" onClick={() => void run()} disabled={busy} data-testid="scratch-run">{busy ? 'Running…' : 'Run'}</button>
        {busy && <button onClick={stop} data-testid="scratch-stop">Stop</button>}
        <label className="muted small">budget <select value={wallSec} onChange={(e) => setWallSec(Number(e.target.value))} data-testid="scratch-budget">
          {[1, 5, 30, 60].map((v) => <option key={v} value={v}>{v} s</option>)}
        </select></label>
        <span className="muted small" data-testid="scratch-target">
          {live ? 'runs on the live robot (pause the run first)' : result?.target === 'scratch-world' && result.fromAction !== null
            ? `ran on a scratch copy of the world from ${result.fromAction === 0 ? 'the initial state' : `after action ${result.fromAction}`}; the 3D view shows where it left the robot`
            : `runs on a scratch copy of the world ${atAction === null || atAction === 0 ? 'from the initial state' : `after action ${atAction}`} (the selected moment)`}
        </span>
      </div>
      {error && <pre className="error">{error}</pre>}
      {d?.stdout && <pre className="stdout" data-testid="scratch-stdout">{d.stdout}</pre>}
      {d?.value !== undefined && <pre className="value">→ {d.value}</pre>}
      {d?.error && <pre className="error">{d.error.type}: {d.error.message}{d.error.line ? ` (line ${d.error.line})` : ''}</pre>}
      {/* A stop the runtime also reported as the cell's error is said once. */}
      {d?.stop && d.stop.message !== d.error?.message && <pre className="error">{d.stop.message}</pre>}
      {result && <div className="muted small" data-testid="scratch-verdict">judge after the cell: {result.verdict.success ? 'solved' : 'not solved'} ({result.verdict.reason})</div>}
      {result?.images.map((im, i) => <img key={i} src={im.dataUrl} alt={im.label} width={240} />)}
    </div>
  );
}
