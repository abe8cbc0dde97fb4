/**
 * The robot's primitive registry: the read-only queries plus the motions of each arm, over one
 * RobotWorld. On the bimanual robot every arm primitive takes an `arm: 'left' | 'right'` option.
 */
import { motionPrimitives } from './motion';
import { queryPrimitives } from './query';
import { Registry } from './registry';
import type { RobotWorld } from './world';

export function createRobotRegistry(world: RobotWorld): Registry {
  const dt = world.sim.timestepSec;
  return new Registry([...queryPrimitives(world), ...motionPrimitives(world)], {
    stepCount: () => Math.round(world.sim.data.time / dt),
    judge: world.judge,
  });
}
