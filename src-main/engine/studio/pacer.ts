import { encodePoseFrame } from '../../../src-shared/protocol';
import type { Sim } from '../sim/sim';

const STREAM_INTERVAL_MS = 1000 / 60;
const CONTACTS_INTERVAL_MS = 200;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const yieldNow = () => new Promise<void>((r) => setImmediate(r));

/**
 * Runs between the chunks of every motion of a live run: streams body poses (at most 60 Hz),
 * holds the sim to a real-time factor, and parks it while paused. It only decides *when* the
 * next chunk runs, never how many steps it has, so a paced run stays bit-identical to a fast one.
 */
export class Pacer {
  private speed: number | null;
  private wallAnchorMs = 0;
  private simAnchorSec = 0;
  private lastStreamMs = 0;
  private seq = 0;
  private poses: Float32Array | null = null;
  private paused = false;
  private resume: (() => void) | null = null;
  private resumed: Promise<void> = Promise.resolve();
  private stopped = false;
  private parkedNow = false;
  /** Called when a motion parks (paused mid-way): whoever waits for the run to settle hears it. */
  onParked: (() => void) | null = null;

  private lastContactsMs = 0;

  constructor(
    private readonly send: (frame: ArrayBuffer) => void,
    speed: number | null,
    private readonly sendContacts: (points: Array<[number, number, number]>) => void = () => undefined,
    private readonly streamId = 0,
  ) {
    this.speed = speed;
  }

  setSpeed(speed: number | null): void {
    this.speed = speed;
    this.wallAnchorMs = 0;
  }

  setPaused(paused: boolean): void {
    if (paused === this.paused) return;
    this.paused = paused;
    if (paused) this.resumed = new Promise((r) => (this.resume = r));
    else {
      this.resume?.();
      this.wallAnchorMs = 0;
    }
  }

  /** Releases a parked sim for good (the run is stopping). */
  stop(): void {
    this.stopped = true;
    this.setPaused(false);
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** A motion is parked inside its step loop, waiting for the run to resume. */
  get isParked(): boolean {
    return this.parkedNow;
  }

  /** Sends the current poses now (e.g. after a pause or at the end of an action). */
  stream(sim: Sim): void {
    this.poses = sim.bodyPoses(this.poses ?? undefined);
    this.send(encodePoseFrame(this.seq++, sim.data.time, this.streamId, this.poses, sim.nbody));
    this.lastStreamMs = performance.now();
    if (this.lastStreamMs - this.lastContactsMs >= CONTACTS_INTERVAL_MS) {
      this.lastContactsMs = this.lastStreamMs;
      this.sendContacts(sim.contacts().map((c) => c.pos));
    }
  }

  readonly hook = async (sim: Sim): Promise<void> => {
    const now = performance.now();
    if (now - this.lastStreamMs >= STREAM_INTERVAL_MS) this.stream(sim);
    if (this.speed !== null && !this.stopped) {
      const t = sim.data.time;
      if (this.wallAnchorMs === 0) {
        this.wallAnchorMs = now;
        this.simAnchorSec = t;
      }
      const dueMs = this.wallAnchorMs + ((t - this.simAnchorSec) * 1000) / this.speed;
      const waitMs = dueMs - performance.now();
      // Far behind (a slow machine, a long model call): re-anchor instead of racing to catch up.
      if (waitMs < -250) this.wallAnchorMs = 0;
      if (waitMs > 1) await sleep(waitMs);
      else await yieldNow();
    } else await yieldNow();
    if (!this.paused || this.stopped) return;
    this.parkedNow = true;
    this.onParked?.();
    try {
      while (this.paused && !this.stopped) {
        this.stream(sim);
        await this.resumed;
      }
    } finally {
      this.parkedNow = false;
    }
  };
}
