import type { SceneFrame } from '../../src-shared/protocol';

/** The part of SceneView a live view drives. */
export interface PoseSink {
  setPoses(poses: Float32Array, smooth?: boolean): void;
  setContacts(points: SceneFrame['contacts']): void;
}

/**
 * What a live run's 3D view draws: the run's own robot, or the robot of a scratch cell's copy of
 * the run shown over it. The run's pose is kept while a copy is shown, so that taking the copy
 * away puts the run back. Poses stream only while the sim steps and at an action's end, so a run
 * paused at its gate streams nothing until it moves: the pose to put back is the last one known,
 * streamed or else the frame the scene was loaded with. Keeping only streamed poses left the
 * copy's robot drawn, uncaptioned, after Resume or Step (until the run's next motion) whenever
 * nothing had streamed since the scene loaded: a run started paused, or a studio opened or
 * reloaded while the run was paused.
 *
 * A copy belongs to the scene it was shown on: loading that scene again (after a reconnect) keeps
 * the copy drawn, as its caption still says; loading another scene drops it.
 *
 * The stream is kept while the view shows a recorded moment instead (the user scrubbed back), and
 * following the run again draws what it last sent: drawing only what streams after that left the
 * scrubbed moment on screen, passing for the run, for as long as a paused run sent nothing.
 */
export class LiveFollow {
  private scene: string | null = null;
  private poses: Float32Array | null = null;
  private contacts: SceneFrame['contacts'] = [];
  private copy: SceneFrame | null = null;
  private following = true;

  constructor(private readonly sink: () => PoseSink | null) {}

  /** The scene `key` was (re)loaded with `frame`: for a live run, its robot at that moment. */
  loaded(key: string, frame: SceneFrame): void {
    if (key !== this.scene) this.copy = null;
    this.scene = key;
    this.poses = Float32Array.from(frame.poses);
    this.contacts = frame.contacts;
    // Drawn even when a recorded moment is selected: it stands until that moment's frame comes.
    this.draw(true);
  }

  streamedPoses(poses: Float32Array): void {
    this.poses = poses;
    if (this.following && !this.copy) this.sink()?.setPoses(poses, true);
  }

  streamedContacts(points: SceneFrame['contacts']): void {
    this.contacts = points;
    if (this.following && !this.copy) this.sink()?.setContacts(points);
  }

  /** Whether the view follows the run (false: it shows a recorded moment, drawn by others). */
  follow(on: boolean): void {
    if (on === this.following) return;
    this.following = on;
    if (on) this.draw();
  }

  /** Draws a scratch copy's frame instead of the run (again, for a later cell at the same gate). */
  showCopy(frame: SceneFrame): void {
    this.copy = frame;
    this.draw();
  }

  /** Puts the run's last known robot back, if a copy was shown. */
  showLive(): void {
    if (!this.copy) return;
    this.copy = null;
    this.draw();
  }

  get showingCopy(): boolean {
    return this.copy !== null;
  }

  private draw(onLoad = false): void {
    const sink = this.sink();
    if (!sink || !(this.following || onLoad)) return;
    if (this.copy && this.following) {
      sink.setPoses(Float32Array.from(this.copy.poses));
      sink.setContacts(this.copy.contacts);
    } else if (this.poses) {
      sink.setPoses(this.poses);
      sink.setContacts(this.contacts);
    }
  }
}
