import { describe, expect, it } from 'vitest';
import type { SceneFrame } from '../../src-shared/protocol';
import { scratchOverride, type ScratchFrameState, type ScratchViewContext } from './scratchFrame';

const frame: SceneFrame = { poses: [0, 0, 0.3, 1, 0, 0, 0], contacts: [], simTimeSec: 1.5 };
const liveCopy: ScratchFrameState = { episodeId: 'ep-live', atAction: null, beforeCall: 2, frame };
const recorded: ScratchFrameState = { episodeId: 'ep-rec', atAction: 3, beforeCall: null, frame };
const pausedAtGate: ScratchViewContext = { episodeId: 'ep-live', atAction: null, live: true, runState: 'paused', pausedAt: { call: 2, where: 'before-call' } };

describe('which robot the 3D view shows after a scratch cell', () => {
  it('shows a live run\'s scratch copy while the run stays paused at the gate the copy was taken at', () => {
    expect(scratchOverride(liveCopy, pausedAtGate)).toBe(frame);
  });

  it('goes back to the live run once it resumes, steps on to the next gate, or pauses mid-action', () => {
    expect(scratchOverride(liveCopy, { ...pausedAtGate, runState: 'running', pausedAt: null })).toBeNull();
    expect(scratchOverride(liveCopy, { ...pausedAtGate, pausedAt: { call: 3, where: 'before-call' } })).toBeNull();
    expect(scratchOverride(liveCopy, { ...pausedAtGate, pausedAt: { call: 2, where: 'in-call' } })).toBeNull();
    expect(scratchOverride(liveCopy, { ...pausedAtGate, runState: 'finished', live: false, atAction: 2 })).toBeNull();
  });

  it('shows the recording when the user scrubs a live run back to a recorded moment, and another episode never', () => {
    expect(scratchOverride(liveCopy, { ...pausedAtGate, atAction: 1 })).toBeNull();
    expect(scratchOverride(liveCopy, { ...pausedAtGate, episodeId: 'ep-other' })).toBeNull();
  });

  it('shows a recorded episode\'s scratch world only at the moment it was run from', () => {
    const at = (atAction: number | null): ScratchViewContext => ({ episodeId: 'ep-rec', atAction, live: false, runState: null, pausedAt: null });
    expect(scratchOverride(recorded, at(3))).toBe(frame);
    expect(scratchOverride(recorded, at(2))).toBeNull();
    expect(scratchOverride({ ...recorded, frame: null }, at(3))).toBeNull();
  });
});
