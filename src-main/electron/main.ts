import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, Menu, session, shell, type IpcMainInvokeEvent } from 'electron';
import { IPC, type EngineStatus, type MenuCommand } from '../../src-shared/electronBridge';
import { buildEngineSpawn, createToken, engineUrls } from './engineSpawn';
import { findNode } from './findNode';
import { grantFiles } from './grants';
import { openDialogOptions, saveDialogOptions } from './ipcArgs';
import { aboutText, buildMenuTemplate } from './menu';
import { RestartPolicy } from './restartPolicy';
import { contentSecurityPolicy, externalLinkTarget, isAllowedNavigation } from './security';
import { EngineSupervisor, type RunningEngine } from './supervisor';

// `npm run dev` (electron-vite dev) serves the renderer from Vite and tells us where.
const devServerUrl = process.env.ELECTRON_RENDERER_URL;
const devServerOrigin = devServerUrl ? new URL(devServerUrl).origin : undefined;
const dev = devServerUrl !== undefined || process.env.ROBOCELL_DEV === '1';
const here = dirname(fileURLToPath(import.meta.url));

let win: BrowserWindow | null = null;
let supervisor: EngineSupervisor | null = null;
let nodePath: string | null = null;
let status: EngineStatus = { state: 'starting' };
let quitState: 'running' | 'stopping' | 'done' = 'running';
let engineWasReady = false;

function allowedOrigins(): string[] {
  const engine = supervisor?.engine;
  return [engine ? engineUrls(engine.port, engine.token).origin : null, devServerOrigin].filter((o): o is string => o !== null && o !== undefined);
}

function sendToUi(channel: string, value: EngineStatus | MenuCommand): void {
  if (win && !win.isDestroyed()) win.webContents.send(channel, value);
}

function showEngine(engine: RunningEngine): void {
  engineWasReady = true;
  const { pageUrl } = engineUrls(engine.port, engine.token, devServerUrl);
  if (win && !win.isDestroyed()) {
    void win.loadURL(pageUrl);
    return;
  }
  win = new BrowserWindow({
    width: 1440,
    height: 900,
    show: false,
    title: 'Robocell Studio',
    webPreferences: {
      preload: join(here, '../preload/preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win?.show());
  // A reloaded page starts without state: tell it where the engine stands.
  win.webContents.on('did-finish-load', () => sendToUi(IPC.engineStatus, status));
  win.on('closed', () => (win = null));
  void win.loadURL(pageUrl);
}

function onStatus(next: EngineStatus): void {
  status = next;
  sendToUi(IPC.engineStatus, next);
  if (next.state === 'failed') console.error(`robocell shell: ${next.message}`);
  // A first start that fails (a missing build, an old node) fails the same way again: there is
  // no window yet, so say why in a dialog now instead of retrying.
  if (!engineWasReady && quitState === 'running' && (next.state === 'failed' || next.state === 'restarting')) {
    const why = next.state === 'failed' ? next.message : next.reason;
    dialog.showErrorBox('Robocell Studio: the engine does not start', `${why}\n\nThe engine log is in ${app.getPath('logs')}.`);
    app.quit();
  }
}

function hardenContents(): void {
  app.on('web-contents-created', (_event, contents) => {
    const guard = (event: Electron.Event, url: string) => {
      if (!isAllowedNavigation(url, allowedOrigins())) event.preventDefault();
    };
    contents.on('will-navigate', (event) => guard(event, event.url));
    contents.on('will-redirect', (event) => guard(event, event.url));
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      const external = externalLinkTarget(url);
      if (external) void shell.openExternal(external);
      return { action: 'deny' };
    });
  });
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.webRequest.onHeadersReceived((details, callback) => {
    const headers: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      if (name.toLowerCase() !== 'content-security-policy') headers[name] = value;
    }
    const engine = supervisor?.engine;
    const engineOrigin = engine ? engineUrls(engine.port, engine.token).origin : 'http://127.0.0.1';
    headers['Content-Security-Policy'] = [contentSecurityPolicy({ engineOrigin, devServerOrigin })];
    callback({ responseHeaders: headers });
  });
}

function fromOurPage(event: IpcMainInvokeEvent): BrowserWindow {
  const frameUrl = event.senderFrame?.url ?? '';
  const owner = BrowserWindow.fromWebContents(event.sender);
  if (!owner || !isAllowedNavigation(frameUrl, allowedOrigins())) throw new Error(`refused IPC from ${frameUrl || 'an unknown frame'}`);
  return owner;
}

function registerIpc(): void {
  ipcMain.handle(IPC.openFileDialog, async (event, raw: unknown) => {
    const owner = fromOurPage(event);
    const result = await dialog.showOpenDialog(owner, openDialogOptions(raw));
    // The page gets grant ids, not paths: the engine alone learns what was chosen.
    return result.canceled ? null : grantFiles(result.filePaths, 'read', (line) => supervisor?.sendLine(line) ?? false);
  });
  ipcMain.handle(IPC.saveFileDialog, async (event, raw: unknown) => {
    const owner = fromOurPage(event);
    const result = await dialog.showSaveDialog(owner, saveDialogOptions(raw));
    return result.canceled || !result.filePath ? null : grantFiles([result.filePath], 'write', (line) => supervisor?.sendLine(line) ?? false)[0];
  });
}

function startSupervisor(): EngineSupervisor {
  const logDir = app.getPath('logs');
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, 'engine.log');
  const log = createWriteStream(logFile, { flags: 'a' });
  log.write(`\n--- shell started ${new Date().toISOString()} ---\n`);
  const node = findNode();
  nodePath = node;
  const root = app.getAppPath();
  console.error(`robocell shell: engine node ${node}, log ${logFile}`);
  const sup = new EngineSupervisor({
    spawn: (spec) => spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true }),
    spec: (token) => buildEngineSpawn({ nodePath: node, root, token, baseEnv: process.env, extraOrigins: devServerOrigin ? [devServerOrigin] : [] }),
    createToken,
    policy: new RestartPolicy({ now: () => Date.now() }),
    readyTimeoutMs: 30_000,
    stopGraceMs: 5_000,
    onStatus,
    onReady: showEngine,
    log: (text) => {
      log.write(text);
      process.stderr.write(text);
    },
  });
  app.on('will-quit', () => log.end());
  sup.start();
  return sup;
}

function installMenu(): void {
  const template = buildMenuTemplate({
    platform: process.platform,
    dev,
    actions: {
      send: (command) => sendToUi(IPC.menuCommand, command),
      restartEngine: () => supervisor?.restart(),
      about: () =>
        void dialog.showMessageBox({
          type: 'info',
          title: 'About Robocell Studio',
          message: aboutText({ appVersion: app.getVersion(), versions: process.versions, nodePath, engine: supervisor?.engine ?? null }),
        }),
    },
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (win?.isMinimized()) win.restore();
    win?.focus();
  });
  // End the engine before Electron exits: hold the quit until it is gone.
  app.on('before-quit', (event) => {
    if (quitState === 'done' || !supervisor) return;
    event.preventDefault();
    if (quitState === 'stopping') return;
    quitState = 'stopping';
    void supervisor.stop().finally(() => {
      quitState = 'done';
      app.quit();
    });
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    const engine = supervisor?.engine;
    if (!win && engine) showEngine(engine);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());

  void app.whenReady().then(() => {
    hardenContents();
    registerIpc();
    installMenu();
    try {
      supervisor = startSupervisor();
    } catch (err) {
      dialog.showErrorBox('Robocell Studio cannot start its engine', (err as Error).message);
      app.quit();
    }
  });
}
