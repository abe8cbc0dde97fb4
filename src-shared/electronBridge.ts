import type { EngineStatus, FileGrant, MenuCommand, OpenFileDialogOptions, SaveFileDialogOptions } from './electronIpc';

export type { EngineStatus, FileFilter, FileGrant, MenuCommand, OpenFileDialogOptions, SaveFileDialogOptions } from './electronIpc';

/**
 * What the Electron preload exposes as `window.robocell`. The same UI runs in a plain browser,
 * where the bridge is absent: reach it only through `electronBridge()`, which may return undefined.
 */
export interface RobocellBridge {
  readonly isElectron: true;
  /** The files chosen by the user, each granted to the engine for reading once; null when cancelled. */
  openFileDialog(opts?: OpenFileDialogOptions): Promise<FileGrant[] | null>;
  /** The file chosen by the user, granted to the engine for writing once; null when cancelled. */
  saveFileDialog(opts?: SaveFileDialogOptions): Promise<FileGrant | null>;
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
