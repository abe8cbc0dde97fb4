import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RpcError } from '../rpc';
import { ConfigStore } from './config';
import { studioModelFactory } from './modelFactory';

const freshConfig = () => new ConfigStore(join(mkdtempSync(join(tmpdir(), 'rc-models-')), 'config.json'));

describe('the studio model factory', () => {
  it('builds the offline heuristic agent without any endpoint configured', () => {
    const model = studioModelFactory(freshConfig())('heuristic');
    expect(model.info.name).toBe('heuristic');
    expect(model.info.scripted).toBe(true);
  });

  it('refuses the endpoint with a clear invalid-argument error until Settings name a model', () => {
    const models = studioModelFactory(freshConfig());
    let err: unknown;
    try {
      models('endpoint');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RpcError);
    expect((err as RpcError).code).toBe('invalid-argument');
    expect((err as Error).message).toMatch(/no endpoint model is configured/);
  });

  it('builds the endpoint model Settings name, for the base URL saved there', () => {
    const config = freshConfig();
    config.update({ baseUrl: 'http://127.0.0.1:9/v1', model: 'my-model', apiKey: 'sk-test' });
    const model = studioModelFactory(config)('endpoint');
    expect(model.info.name).toBe('my-model');
    expect(model.info.scripted).toBe(false);
    expect(model.info.baseUrl).toBe('http://127.0.0.1:9/v1');
  });
});
