/**
 * openStudio (the e2e suites' shared setup) when the studio does not open: the caller gets no
 * handle to close, so what was started (the engine process, Chromium) is closed before the error
 * is passed on. The engine and the browser are stand-ins here: what is checked is the helper's
 * own cleanup, not either program.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const calls: string[] = [];
let failAt: 'launch' | 'goto' | null = null;

vi.mock('../helpers/engine', () => ({
  startEngineProcess: async () => ({
    url: 'http://127.0.0.1:1/?token=t',
    stop: async () => {
      calls.push('engine.stop');
      return 0;
    },
  }),
}));

vi.mock('../helpers/browser', () => ({
  launchChromium: async () => {
    if (failAt === 'launch') throw new Error('Chromium not found');
    return {
      close: async () => void calls.push('browser.close'),
      newPage: async () => ({
        on: () => {},
        goto: async () => {
          if (failAt === 'goto') throw new Error('net::ERR_CONNECTION_REFUSED');
        },
        locator: () => ({ waitFor: async () => {} }),
        getByTestId: () => ({ locator: () => ({ first: () => ({ waitFor: async () => {} }) }) }),
      }),
    };
  },
}));

describe('openStudio when the studio does not open', () => {
  afterEach(() => {
    calls.length = 0;
    failAt = null;
  });

  it('stops the engine it started when Chromium cannot start', async () => {
    const { openStudio } = await import('../helpers/studio');
    failAt = 'launch';
    await expect(openStudio('cleanup')).rejects.toThrow('Chromium not found');
    expect(calls).toEqual(['engine.stop']);
  });

  it('closes the browser and stops the engine when the page does not load', async () => {
    const { openStudio } = await import('../helpers/studio');
    failAt = 'goto';
    await expect(openStudio('cleanup')).rejects.toThrow('ERR_CONNECTION_REFUSED');
    expect(calls).toEqual(['browser.close', 'engine.stop']);
  });

  it('leaves both running for the caller when the studio opens', async () => {
    const { openStudio } = await import('../helpers/studio');
    const studio = await openStudio('cleanup');
    expect(calls).toEqual([]);
    await studio.close();
    expect(calls).toEqual(['browser.close', 'engine.stop']);
  });
});
