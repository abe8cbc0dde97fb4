import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../agent/loop';
import { settingsFromArgs } from './command';
import { specFromArgs } from './commands/experimentSpec';

describe('settings flags: one reading for run, prompt and experiment run', () => {
  it('--cameras none means no cameras in both', () => {
    expect(settingsFromArgs({ cameras: 'none' }, DEFAULT_SETTINGS).cameras).toEqual([]);
    expect(specFromArgs({ tasks: ['t'], seeds: [0] }, { cameras: 'none' }, 'heuristic').settings?.cameras).toEqual([]);
    expect(settingsFromArgs({ cameras: 'front, wrist' }, DEFAULT_SETTINGS).cameras).toEqual(['front', 'wrist']);
  });

  it("experiment run's per-episode budget is --episode-max-calls, and a bad value is named so", () => {
    expect(specFromArgs({ tasks: ['t'], seeds: [0] }, { 'episode-max-calls': '7' }, 'heuristic').settings?.budgets.maxModelCalls).toBe(7);
    expect(() => specFromArgs({ tasks: ['t'], seeds: [0] }, { 'episode-max-calls': '0' }, 'heuristic')).toThrow(/--episode-max-calls/);
    expect(() => settingsFromArgs({ 'max-calls': 'x' }, DEFAULT_SETTINGS)).toThrow(/--max-calls/);
  });

  it('flags override a spec file, which overrides the defaults', () => {
    const file = { tasks: ['t'], seeds: [0], settings: { images: 'on-motion', budgets: { maxSimSteps: 1234 } } };
    const s = specFromArgs(file, { detail: 'high' }, 'heuristic').settings;
    expect(s?.images).toBe('on-motion');
    expect(s?.imageDetail).toBe('high');
    expect(s?.budgets.maxSimSteps).toBe(1234);
    expect(s?.budgets.maxModelCalls).toBe(DEFAULT_SETTINGS.budgets.maxModelCalls);
  });

  it('the cell language is Python unless --lang or the spec file names another, as in the study', () => {
    expect(DEFAULT_SETTINGS.language).toBe('python');
    expect(settingsFromArgs({}, DEFAULT_SETTINGS).language).toBe('python');
    expect(specFromArgs({ tasks: ['t'], seeds: [0] }, {}, 'heuristic').settings?.language).toBe('python');
    expect(settingsFromArgs({ lang: 'javascript' }, DEFAULT_SETTINGS).language).toBe('javascript');
    expect(specFromArgs({ tasks: ['t'], seeds: [0], settings: { language: 'javascript' } }, {}, 'heuristic').settings?.language).toBe('javascript');
    expect(specFromArgs({ tasks: ['t'], seeds: [0], settings: { language: 'javascript' } }, { lang: 'python' }, 'heuristic').settings?.language).toBe('python');
    expect(() => settingsFromArgs({ lang: 'ruby' }, DEFAULT_SETTINGS)).toThrow(/--lang/);
  });
});
