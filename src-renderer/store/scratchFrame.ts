import { create } from 'zustand';
import type { PausePoint, RunState, SceneFrame, ScratchResult } from '../../src-shared/protocol';

/**
 * The robot as the last scratch cell left it. On a recorded episode it is shown in the 3D view
 * while the same moment stays selected (scrubbing elsewhere shows the recording again); on a live
 * run (`beforeCall` set: the cell ran on a copy taken at the gate before that call) while the run
 * is still paused at that gate and the view follows it. Resume or Step goes back to the live pose.
 */
export interface ScratchFrameState {
  episodeId: string | null;
  atAction: number | null;
  beforeCall: number | null;
  frame: SceneFrame | null;
}

export const NO_SCRATCH_FRAME: ScratchFrameState = { episodeId: null, atAction: null, beforeCall: null, frame: null };

export const useScratchFrame = create<ScratchFrameState>(() => NO_SCRATCH_FRAME);

/**
 * What the store holds after a scratch cell on `episodeId` (run from the selected moment
 * `atAction`, null on a live run) replied. A reply without a frame (the engine could not read the
 * copy's robot) clears it: keeping the earlier cell's frame would show a pose this cell may have
 * moved the robot away from, captioned as where it left it.
 */
export function scratchFrameAfter(r: Pick<ScratchResult, 'frame' | 'target' | 'beforeCall'>, episodeId: string, atAction: number | null): ScratchFrameState {
  if (!r.frame) return NO_SCRATCH_FRAME;
  return { episodeId, atAction: r.target === 'scratch-world' ? atAction : null, beforeCall: r.target === 'live-copy' ? r.beforeCall : null, frame: r.frame };
}

export interface ScratchViewContext {
  episodeId: string | null;
  /** The recorded moment the view shows; null when it follows the live run. */
  atAction: number | null;
  live: boolean;
  /** The active run's state and pause point, when it is this episode's run. */
  runState: RunState | null;
  pausedAt: PausePoint | null;
}

/** The frame the 3D view shows instead of the recording or the live stream, or null. */
export function scratchOverride(s: ScratchFrameState, v: ScratchViewContext): SceneFrame | null {
  if (!s.frame || s.episodeId === null || s.episodeId !== v.episodeId) return null;
  if (s.beforeCall !== null) {
    const sameGate = v.runState === 'paused' && v.pausedAt?.where === 'before-call' && v.pausedAt.call === s.beforeCall;
    return v.live && v.atAction === null && sameGate ? s.frame : null;
  }
  return !v.live && s.atAction === v.atAction ? s.frame : null;
}
