/**
 * A cell session's world for a task instance: the episode world (sim, robot registry, judge) with,
 * optionally, the headless renderer behind `robo.show`.
 */
import type { InstanceRef } from '../../../src-shared/episode';
import { attachCameraSource } from '../render/simView';
import { createEpisodeWorld } from '../tasks/episode';
import type { CellSessionWorld } from './handlers';

export async function openEpisodeCellWorld(instance: InstanceRef, opts: { render?: boolean } = {}): Promise<CellSessionWorld> {
  const ep = await createEpisodeWorld(instance);
  const camera = opts.render ? attachCameraSource(ep) : null;
  return {
    registry: ep.registry,
    countSimSteps: () => Math.round(ep.sim.data.time / ep.sim.timestepSec),
    judge: () => ep.judge(),
    dispose: () => {
      camera?.dispose();
      ep.dispose();
    },
  };
}
