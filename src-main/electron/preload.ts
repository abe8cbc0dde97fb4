import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC, type EngineStatus, type MenuCommand, type RobocellBridge } from '../../src-shared/electronBridge';

// The page gets these functions only, never ipcRenderer itself; main validates every argument.
function subscribe<T>(channel: string, cb: (value: T) => void): () => void {
  const listener = (_event: IpcRendererEvent, value: T) => cb(value);
  ipcRenderer.on(channel, listener);
  return () => {
    ipcRenderer.removeListener(channel, listener);
  };
}

const bridge: RobocellBridge = {
  isElectron: true,
  openFileDialog: (opts) => ipcRenderer.invoke(IPC.openFileDialog, opts ?? {}),
  saveFileDialog: (opts) => ipcRenderer.invoke(IPC.saveFileDialog, opts ?? {}),
  onMenuCommand: (cb) => subscribe<MenuCommand>(IPC.menuCommand, cb),
  onEngineStatus: (cb) => subscribe<EngineStatus>(IPC.engineStatus, cb),
};

contextBridge.exposeInMainWorld('robocell', bridge);
