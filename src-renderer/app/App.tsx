import { ConnectionBadge } from './ConnectionBadge';
import { EmptyState, Pane } from './Pane';

export function App() {
  return (
    <div className="studio">
      <header className="topbar">
        <div className="brand">
          <span className="logo">◧</span> Robocell Studio
        </div>
        <ConnectionBadge />
      </header>
      <main className="layout">
        <Pane title="Run" className="area-run" testId="pane-run">
          <EmptyState>No episode yet.</EmptyState>
        </Pane>
        <Pane title="Scene" className="area-scene" testId="pane-scene">
          <EmptyState>No scene loaded.</EmptyState>
        </Pane>
        <Pane title="Context" className="area-context" testId="pane-context">
          <EmptyState>The messages of each model call appear here.</EmptyState>
        </Pane>
        <Pane title="Cells" className="area-cells" testId="pane-cells">
          <EmptyState>Cells and tool calls appear here.</EmptyState>
        </Pane>
        <Pane title="Timeline" className="area-timeline" testId="pane-timeline">
          <EmptyState>One mark per model call.</EmptyState>
        </Pane>
      </main>
    </div>
  );
}
