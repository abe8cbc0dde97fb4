/**
 * Scratch cells: ad-hoc code against the robot, outside any recorded conversation. On a paused
 * live run they act on its robot (and the run's later hashes will say so on replay); otherwise on
 * a scratch world of the episode's instance whose namespace persists across scratch cells. This
 * is the one way the studio runs a hand-written cell (the sandbox itself is cells/; the recorded
 * conversation's cells run through the agent loop).
 */
import { instanceKey, type CellLanguage, type InstanceRef } from '../../../src-shared/episode';
import type { SceneFrame, ScratchResult } from '../../../src-shared/protocol';
import { createRobotEnvironment, type RobotEnvironment } from '../agent/robot/robotEnvironment';
import type { CellOutputLine } from '../cells/types';
import { RpcError } from '../rpc';
import type { EpisodeLibrary } from './library';
import type { RunManager } from './runs';
import { sceneFrame } from './viewer';

const SCRATCH_BUDGET = { maxWallMs: 60_000, maxSimSteps: 100_000 };
/** How long a scratch cell waits for a paused run that is still busy (a model reply, a recording) to reach the gate. */
const GATE_WAIT_MS = 30_000;

export interface ScratchRunOptions {
  maxWallMs?: number;
  /** Scratch world only: the recorded moment to restore first (see `run`). */
  atAction?: number;
  /** Aborted when the client that asked goes away: the cell is stopped, not left running. */
  signal?: AbortSignal;
  /** Each line the cell prints, as it prints it. */
  onOutput?: (line: CellOutputLine) => void;
}

export class ScratchCells {
  /** `moment`: the episode and recorded action the world was last restored to. */
  private world: { key: string; env: RobotEnvironment; moment: string | null; fromAction: number | null } | null = null;
  /** The running cell's stop switch (null when none runs): `interrupt` and a dropped client pull it. */
  private running: AbortController | null = null;

  constructor(
    private readonly library: EpisodeLibrary,
    private readonly runs: RunManager,
    private readonly envFactory: (i: InstanceRef, language: CellLanguage) => Promise<RobotEnvironment> = (i, language) => createRobotEnvironment(i, { render: true, language }),
  ) {}

  /**
   * `atAction` (scratch world only) puts the world at that recorded moment first, when it is not
   * already there: successive scratch cells at one moment build on each other, as in a notebook.
   */
  async run(episodeId: string, code: string, opts: ScratchRunOptions = {}): Promise<ScratchResult> {
    if (this.running) throw new RpcError('busy', 'a scratch cell is still running');
    const { atAction, maxWallMs = SCRATCH_BUDGET.maxWallMs } = opts;
    const stop = new AbortController();
    this.running = stop;
    const onDropped = () => stop.abort('the client disconnected');
    if (opts.signal?.aborted) onDropped();
    else opts.signal?.addEventListener('abort', onDropped, { once: true });
    let giveBack: (() => void) | null = null;
    try {
      const live = this.runs.current;
      let env: RobotEnvironment;
      let target: ScratchResult['target'];
      let fromAction: number | null = null;
      if (live && live.episodeId === episodeId) {
        if (live.state !== 'paused') throw new RpcError('busy', 'pause the run before running a scratch cell against its robot');
        // Paused inside an action, the agent's motion (or cell) is parked mid-way and resumes on Resume:
        // a scratch cell that moved the robot now would interleave with it, and the recorded action
        // would describe motions that did not happen as recorded. Only a run paused between model
        // calls lends its robot.
        if (!(await live.reachesGate(GATE_WAIT_MS))) throw new RpcError('busy', `the run is paused in the middle of model call ${live.currentCall} (its action is under way); scratch cells run between model calls: press Step, and run the cell once the run pauses again`);
        // Scratch cells restore and report a robot's pose; another environment has none to show.
        if (!('taskWorld' in live.env)) throw new RpcError('invalid-argument', `scratch cells need a robot world; this run's environment is "${live.env.kind}"`);
        env = live.env as RobotEnvironment;
        target = 'live-run';
        giveBack = live.lendRobot();
      } else {
        const ep = this.library.open(episodeId);
        if (ep.meta.environment !== 'mujoco') throw new RpcError('invalid-argument', `scratch cells need a robot world; this episode's environment is "${ep.meta.environment}"`);
        const { instance } = ep.meta;
        // Scratch cells are written in the episode's cell language.
        const { language } = ep.meta.settings;
        const key = `${instanceKey(instance)}/${language}`;
        if (this.world?.key !== key) {
          this.world?.env.dispose();
          this.world = { key, env: await this.envFactory(instance, language), moment: null, fromAction: null };
        }
        env = this.world.env;
        const moment = atAction === undefined ? null : `${episodeId}#${atAction}`;
        if (moment !== null && moment !== this.world.moment) {
          this.restoreMoment(episodeId, ep.events, atAction as number, env);
          this.world.moment = moment;
          this.world.fromAction = atAction as number;
        }
        fromAction = this.world.fromAction;
        target = 'scratch-world';
      }
      // A stop that came while the world was being prepared reaches runCell already aborted: the
      // cell does not start.
      const r = await env.runCell(code, { ...SCRATCH_BUDGET, maxWallMs, signal: stop.signal, onOutput: opts.onOutput });
      return {
        ok: r.ok,
        text: r.text,
        detail: r.detail,
        images: r.images.map((im) => ({ label: im.label, dataUrl: `data:image/png;base64,${Buffer.from(im.png).toString('base64')}` })),
        target,
        frame: frameOf(env),
        fromAction,
        verdict: env.judge(),
      };
    } finally {
      opts.signal?.removeEventListener('abort', onDropped);
      giveBack?.();
      this.running = null;
    }
  }

  /** Stops the running scratch cell, uncatchably for the cell; false when none is running. */
  interrupt(): boolean {
    if (!this.running || this.running.signal.aborted) return false;
    this.running.abort('stopped by the user');
    return true;
  }

  private restoreMoment(episodeId: string, events: ReturnType<EpisodeLibrary['open']>['events'], action: number, env: RobotEnvironment): void {
    const snapshot = this.library.snapshotAt(episodeId, events, action);
    if (!snapshot) throw new RpcError('not-found', action === 0 ? `episode ${episodeId} has no initial snapshot` : `action ${action} of ${episodeId} has no recorded snapshot`);
    const sim = env.taskWorld.sim;
    sim.restore(snapshot);
    sim.forward();
  }

  dispose(): void {
    this.world?.env.dispose();
    this.world = null;
  }
}

function frameOf(env: RobotEnvironment): SceneFrame | null {
  try {
    return sceneFrame(env.taskWorld.sim);
  } catch {
    return null;
  }
}
