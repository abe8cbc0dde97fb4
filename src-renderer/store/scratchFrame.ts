import { create } from 'zustand';
import type { SceneFrame } from '../../src-shared/protocol';

/**
 * The robot as the last scratch cell left it, shown in the 3D view while the same moment stays
 * selected (scrubbing elsewhere shows the recording again).
 */
export const useScratchFrame = create<{ episodeId: string | null; atAction: number | null; frame: SceneFrame | null }>(() => ({ episodeId: null, atAction: null, frame: null }));
