import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigStore } from './config';

describe('engine config file', () => {
  it('keeps the API key in a 0600 file and never in the public view', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'rc-config-')), 'config.json');
    const store = new ConfigStore(path);
    expect(store.publicView()).toEqual({ baseUrl: '', model: '', imageDetail: 'low', hasApiKey: false });
    const view = store.update({ baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt-4o', apiKey: 'sk-secret' });
    expect(view).toEqual({ baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt-4o', imageDetail: 'low', hasApiKey: true });
    expect(JSON.stringify(view)).not.toContain('sk-secret');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8')).apiKey).toBe('sk-secret');
    // An update without a key keeps the saved one.
    expect(new ConfigStore(path).update({ model: 'other' }).hasApiKey).toBe(true);
  });

  it('refuses a corrupt config file with a message naming it', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'rc-config-')), 'config.json');
    writeFileSync(path, '{"baseUrl": 42');
    expect(() => new ConfigStore(path)).toThrow(/config\.json is not valid JSON/);
    writeFileSync(path, '{"imageDetail": "ultra"}');
    expect(() => new ConfigStore(path)).toThrow(/imageDetail/);
  });
});
