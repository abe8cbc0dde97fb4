import type { EngineStatus, MenuCommand, OpenFileDialogOptions, SaveFileDialogOptions } from './electronIpc';

export type { EngineStatus, FileFilter, MenuCommand, OpenFileDialogOptions, SaveFileDialogOptions } from './electronIpc';

/**
 * What the Electron preload exposes as `window.robocell`. The same UI runs in a plain browser,
 * where the bridge is absent: reach it only through `electronBridge()`, which may return undefined.
 */
export interface RobocellBridge {
  readonly isElectron: true;
  /** Absolute paths chosen by the user, or null when the dialog was cancelled. */
  openFileDialog(opts?: OpenFileDialogOptions): Promise<string[] | null>;
  /** The absolute path chosen by the user, or null when the dialog was cancelled. */
  saveFileDialog(opts?: SaveFileDialogOptions): Promise<string | null>;
  /** Returns a function that unsubscribes. */
  onMenuCommand(cb: (command: MenuCommand) => void): () => void;
  onEngineStatus(cb: (status: EngineStatus) => void): () => void;
}

/** IPC channel names shared by the preload and the main process. */
export const IPC = {
  openFileDialog: 'robocell:open-file-dialog',
  saveFileDialog: 'robocell:save-file-dialog',
  menuCommand: 'robocell:menu-command',
  engineStatus: 'robocell:engine-status',
} as const;

/** The bridge when running inside the Electron shell, undefined in a plain browser. */
export function electronBridge(): RobocellBridge | undefined {
  return (globalThis as { robocell?: RobocellBridge }).robocell;
}
