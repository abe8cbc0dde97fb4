import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import type { MenuCommand } from '../../src-shared/electronBridge';
import { aboutText, buildMenuTemplate } from './menu';

function items(template: MenuItemConstructorOptions[], label: string): MenuItemConstructorOptions[] {
  const menu = template.find((m) => m.label === label);
  if (!menu || !Array.isArray(menu.submenu)) throw new Error(`no ${label} menu`);
  return menu.submenu;
}

function actions() {
  return { send: vi.fn<(c: MenuCommand) => void>(), restartEngine: vi.fn(), about: vi.fn() };
}

describe('buildMenuTemplate', () => {
  it('File items send episode commands to the UI', () => {
    const a = actions();
    const file = items(buildMenuTemplate({ platform: 'linux', dev: false, actions: a }), 'File');
    for (const item of file) item.click?.(...([] as unknown as Parameters<NonNullable<MenuItemConstructorOptions['click']>>));
    expect(a.send.mock.calls.map((c) => c[0])).toEqual(['episode/open', 'episode/import', 'episode/export']);
    expect(file.at(-1)?.role).toBe('quit');
  });

  it('shows developer tools only in development', () => {
    const roles = (dev: boolean) => items(buildMenuTemplate({ platform: 'linux', dev, actions: actions() }), 'View').map((i) => i.role);
    expect(roles(false)).not.toContain('toggleDevTools');
    expect(roles(true)).toContain('toggleDevTools');
    expect(roles(false)).toEqual(expect.arrayContaining(['reload', 'resetZoom', 'zoomIn', 'zoomOut']));
  });

  it('has an app menu on macOS only', () => {
    expect(buildMenuTemplate({ platform: 'darwin', dev: false, actions: actions() })[0].role).toBe('appMenu');
    expect(buildMenuTemplate({ platform: 'win32', dev: false, actions: actions() })[0].label).toBe('File');
  });
});

describe('aboutText', () => {
  it('lists the versions and where the engine runs', () => {
    const text = aboutText({
      appVersion: '0.1.0',
      versions: { electron: '40.10.2', chrome: '142.0', node: '22.1.0', v8: '14.2' },
      nodePath: '/usr/bin/node',
      engine: { port: 4321, pid: 99 },
    });
    expect(text).toContain('Robocell Studio 0.1.0');
    expect(text).toContain('Electron 40.10.2');
    expect(text).toContain('/usr/bin/node');
    expect(text).toContain('pid 99, http://127.0.0.1:4321');
    expect(aboutText({ appVersion: '0.1.0', versions: {}, nodePath: null, engine: null })).toContain('Engine: not running');
  });
});
