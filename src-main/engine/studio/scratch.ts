/**
 * Scratch cells: ad-hoc code against the robot, outside any recorded conversation. On a paused
 * live run they act on its robot (and the run's later hashes will say so on replay); otherwise on
 * a scratch world of the episode's instance whose namespace persists across scratch cells.
 */
import type { CellDetail, InstanceRef } from '../../../src-shared/episode';
import { createRobotEnvironment, type RobotEnvironment } from '../agent/robot/robotEnvironment';
import { RpcError } from '../server/rpc';
import type { EpisodeLibrary } from './library';
import type { RunManager } from './runs';

const SCRATCH_BUDGET = { maxWallMs: 60_000, maxSimSteps: 100_000 };

export interface ScratchResult {
  ok: boolean;
  text: string;
  detail: CellDetail;
  images: Array<{ label: string; dataUrl: string }>;
  target: 'live-run' | 'scratch-world';
}

export class ScratchCells {
  private world: { key: string; env: RobotEnvironment } | null = null;
  private busy = false;

  constructor(
    private readonly library: EpisodeLibrary,
    private readonly runs: RunManager,
    private readonly envFactory: (i: InstanceRef) => Promise<RobotEnvironment> = (i) => createRobotEnvironment(i, { render: true }),
  ) {}

  async run(episodeId: string, code: string, maxWallMs: number = SCRATCH_BUDGET.maxWallMs): Promise<ScratchResult> {
    if (this.busy) throw new RpcError('busy', 'a scratch cell is still running');
    this.busy = true;
    try {
      const live = this.runs.current;
      let env: RobotEnvironment;
      let target: ScratchResult['target'];
      if (live && live.episodeId === episodeId) {
        if (live.state !== 'paused') throw new RpcError('busy', 'pause the run before running a scratch cell against its robot');
        env = live.env;
        target = 'live-run';
      } else {
        const { instance } = this.library.open(episodeId).meta;
        const key = `${instance.taskId}/${instance.variant}/${instance.seed}`;
        if (this.world?.key !== key) {
          this.world?.env.dispose();
          this.world = { key, env: await this.envFactory(instance) };
        }
        env = this.world.env;
        target = 'scratch-world';
      }
      const r = await env.runCell(code, { ...SCRATCH_BUDGET, maxWallMs });
      return {
        ok: r.ok,
        text: r.text,
        detail: r.detail,
        images: r.images.map((im) => ({ label: im.label, dataUrl: `data:image/png;base64,${Buffer.from(im.png).toString('base64')}` })),
        target,
      };
    } finally {
      this.busy = false;
    }
  }

  dispose(): void {
    this.world?.env.dispose();
    this.world = null;
  }
}
