import type { MenuItemConstructorOptions } from 'electron';
import type { MenuCommand } from '../../src-shared/electronBridge';

export interface MenuActions {
  /** Forward a command to the UI, which owns the episode workflow. */
  send(command: MenuCommand): void;
  restartEngine(): void;
  about(): void;
}

export interface MenuOptions {
  platform: NodeJS.Platform;
  /** Developer tools only in development builds. */
  dev: boolean;
  actions: MenuActions;
}

/** The application menu; built as data so it can be checked without Electron. */
export function buildMenuTemplate({ platform, dev, actions }: MenuOptions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'Open Episode…', accelerator: 'CmdOrCtrl+O', click: () => actions.send('episode/open') },
      { label: 'Import Episode…', click: () => actions.send('episode/import') },
      { label: 'Export Episode…', accelerator: 'CmdOrCtrl+Shift+E', click: () => actions.send('episode/export') },
      { type: 'separator' },
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      { role: 'reload' },
      ...(dev ? [{ role: 'toggleDevTools' } as const] : []),
      { label: 'Restart Engine', click: () => actions.restartEngine() },
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [{ label: 'About Robocell Studio', click: () => actions.about() }],
  };
  // Edit keeps copy/paste shortcuts working in the code editor on macOS.
  return [...(mac ? [{ role: 'appMenu' } as const] : []), file, { role: 'editMenu' }, view, help];
}

export interface AboutInfo {
  appVersion: string;
  versions: Partial<Record<'electron' | 'chrome' | 'node' | 'v8', string>>;
  nodePath: string | null;
  engine: { port: number; pid: number } | null;
}

export function aboutText(info: AboutInfo): string {
  const v = info.versions;
  return [
    `Robocell Studio ${info.appVersion}`,
    `Electron ${v.electron ?? '?'} · Chromium ${v.chrome ?? '?'} · V8 ${v.v8 ?? '?'} · Node (shell) ${v.node ?? '?'}`,
    `Engine node: ${info.nodePath ?? 'not found'}`,
    info.engine ? `Engine: pid ${info.engine.pid}, http://127.0.0.1:${info.engine.port}` : 'Engine: not running',
  ].join('\n');
}
