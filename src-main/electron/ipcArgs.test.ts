import { describe, expect, it } from 'vitest';
import { openDialogOptions, saveDialogOptions } from './ipcArgs';

describe('openDialogOptions', () => {
  it('maps valid options to Electron dialog options', () => {
    expect(openDialogOptions({ title: 'Open episode', filters: [{ name: 'Episodes', extensions: ['json'] }], multiple: true })).toEqual({
      title: 'Open episode',
      filters: [{ name: 'Episodes', extensions: ['json'] }],
      properties: ['openFile', 'multiSelections'],
    });
    expect(openDialogOptions({ directory: true }).properties).toEqual(['openDirectory']);
    expect(openDialogOptions({ filters: [{ name: 'Archives', extensions: ['tar.gz', '*'] }] }).filters).toHaveLength(1);
    expect(openDialogOptions(undefined).properties).toEqual(['openFile']);
  });

  it('refuses wrong types, unknown keys and odd extensions, naming the field', () => {
    expect(() => openDialogOptions({ title: 5 })).toThrow(/openFileDialog: invalid options: title/);
    expect(() => openDialogOptions({ properties: ['openFile'] })).toThrow(/properties|Unrecognized/);
    expect(() => openDialogOptions({ filters: [{ name: 'x', extensions: ['.json'] }] })).toThrow(/filters\.0\.extensions\.0/);
    expect(() => openDialogOptions('open')).toThrow(/openFileDialog/);
  });
});

describe('saveDialogOptions', () => {
  it('maps valid options and asks before overwriting', () => {
    const opts = saveDialogOptions({ defaultPath: 'episode-3.json' });
    expect(opts.defaultPath).toBe('episode-3.json');
    expect(opts.properties).toContain('showOverwriteConfirmation');
  });

  it('refuses an over-long path', () => {
    expect(() => saveDialogOptions({ defaultPath: 'a'.repeat(5000) })).toThrow(/saveFileDialog: invalid options: defaultPath/);
  });
});
