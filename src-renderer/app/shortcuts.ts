import { useEffect } from 'react';
import { useDuel } from '../store/duel';
import { useStudio } from '../store/studio';
import type { EngineClient } from '../transport/client';
import { STEP_DOES, stepIfPaused, togglePause } from './runControl';

/** One table, so the shortcut sheet lists exactly what the handler does. */
export const SHORTCUTS: Array<{ keys: string[]; does: string }> = [
  { keys: ['Space'], does: 'pause / resume the live run' },
  { keys: ['S'], does: STEP_DOES },
  { keys: ['←', '→'], does: 'previous / next model call' },
  { keys: ['Home', 'End'], does: 'first / last model call' },
  { keys: ['Ctrl', 'Enter'], does: 'run the cell being edited (scratch cell)' },
  { keys: ['?'], does: 'show or hide this sheet' },
  { keys: ['Esc'], does: 'close this sheet or a dialog' },
];

function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.closest !== 'function') return false;
  return !!el.closest('.monaco-editor') || ['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName) || el.isContentEditable;
}

/**
 * The studio's keyboard: Space, S, arrows, Home/End, ?. Keys belong to the editor or a form field
 * while one has focus; Space on a focused button stays that button's click.
 */
export function useShortcuts(client: EngineClient, toggleSheet: () => void, closeSheet: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === 'Escape') return closeSheet();
      if (typingIn(e.target)) return;
      if (e.key === '?') {
        toggleSheet();
        e.preventDefault();
        return;
      }
      if (e.key === ' ') {
        if ((e.target as HTMLElement | null)?.tagName === 'BUTTON') return;
        if (togglePause(client)) e.preventDefault();
        return;
      }
      if (e.key === 's' || e.key === 'S') {
        if (stepIfPaused(client)) e.preventDefault();
        return;
      }
      // The duel view steps its own pair.
      if (useDuel.getState().duel) return;
      const s = useStudio.getState();
      const n = s.episode?.view.calls.length ?? 0;
      if (n === 0) return;
      if (e.key === 'ArrowRight') s.selectCall(s.selectedCall + 1);
      else if (e.key === 'ArrowLeft') s.selectCall(s.selectedCall - 1);
      else if (e.key === 'Home') s.selectCall(0);
      else if (e.key === 'End') s.selectCall(n - 1);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [client, toggleSheet, closeSheet]);
}
