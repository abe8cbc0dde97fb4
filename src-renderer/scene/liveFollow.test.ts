import { describe, expect, it } from 'vitest';
import type { SceneFrame } from '../../src-shared/protocol';
import { LiveFollow, type PoseSink } from './liveFollow';

const frame = (z: number, contacts: SceneFrame['contacts'] = []): SceneFrame => ({ poses: [0, 0, z, 1, 0, 0, 0], contacts, simTimeSec: 0 });

/** A view that remembers what it was last told to draw. */
function sink() {
  const drawn = { poses: null as number[] | null, smooth: false, contacts: null as SceneFrame['contacts'] | null };
  const view: PoseSink = {
    setPoses: (p, smooth = false) => Object.assign(drawn, { poses: Array.from(p), smooth }),
    setContacts: (c) => Object.assign(drawn, { contacts: c }),
  };
  return { drawn, live: new LiveFollow(() => view) };
}

describe('the live view and a scratch copy over it', () => {
  it('puts the loaded pose back after a copy when the run had streamed nothing (started paused, or the studio opened while paused)', () => {
    const { drawn, live } = sink();
    live.loaded('ep', frame(0.25, [[1, 2, 3]]));
    expect(drawn.poses?.[2]).toBe(0.25);
    live.showCopy(frame(0.3));
    expect(drawn.poses?.[2]).toBeCloseTo(0.3, 6);
    expect(drawn.contacts).toEqual([]);
    live.showLive();
    expect(drawn.poses?.[2]).toBe(0.25);
    expect(drawn.contacts).toEqual([[1, 2, 3]]);
    expect(live.showingCopy).toBe(false);
  });

  it('keeps what streams under a copy for when it goes, and draws the stream smoothly otherwise', () => {
    const { drawn, live } = sink();
    live.loaded('ep', frame(0.25));
    live.streamedPoses(Float32Array.from(frame(0.2).poses));
    expect(drawn).toMatchObject({ smooth: true });
    expect(drawn.poses?.[2]).toBeCloseTo(0.2, 6);
    live.showCopy(frame(0.3));
    live.streamedPoses(Float32Array.from(frame(0.1).poses));
    live.streamedContacts([[4, 5, 6]]);
    expect(drawn.poses?.[2]).toBeCloseTo(0.3, 6);
    expect(drawn.contacts).toEqual([]);
    live.showLive();
    expect(drawn.poses?.[2]).toBeCloseTo(0.1, 6);
    expect(drawn.contacts).toEqual([[4, 5, 6]]);
  });

  it('keeps the copy drawn when its scene loads again (a reconnect), drops it for another scene', () => {
    const { drawn, live } = sink();
    live.loaded('ep', frame(0.25));
    live.showCopy(frame(0.3));
    live.loaded('ep', frame(0.25));
    expect(drawn.poses?.[2]).toBeCloseTo(0.3, 6);
    expect(live.showingCopy).toBe(true);
    live.loaded('other', frame(0.5));
    expect(drawn.poses?.[2]).toBe(0.5);
    expect(live.showingCopy).toBe(false);
  });

  it('keeps the stream while a recorded moment is shown, and draws its last pose (or the copy) on following again', () => {
    const { drawn, live } = sink();
    live.loaded('ep', frame(0.25));
    live.follow(false);
    // the recorded moment is drawn by the seek, not here
    drawn.poses = null;
    live.streamedPoses(Float32Array.from(frame(0.2).poses));
    live.streamedContacts([[7, 8, 9]]);
    expect(drawn.poses).toBeNull();
    live.follow(true);
    expect(drawn.poses?.[2]).toBeCloseTo(0.2, 6);
    expect(drawn.contacts).toEqual([[7, 8, 9]]);
    // a copy still shown when the user comes back is drawn again
    live.showCopy(frame(0.3));
    live.follow(false);
    drawn.poses = null;
    live.follow(true);
    expect(drawn.poses?.[2]).toBeCloseTo(0.3, 6);
    // a scene loaded while a moment is selected is drawn until that moment's frame comes
    live.follow(false);
    live.loaded('other', frame(0.5));
    expect(drawn.poses?.[2]).toBe(0.5);
  });

  it('draws nothing before a scene is loaded, and showLive without a copy changes nothing', () => {
    const { drawn, live } = sink();
    live.showLive();
    expect(drawn.poses).toBeNull();
    live.loaded('ep', frame(0.25));
    live.streamedPoses(Float32Array.from(frame(0.2).poses));
    live.showLive();
    expect(drawn).toMatchObject({ smooth: true });
  });
});
