/** The environments episodes can be recorded in and replayed against, by meta.json's `environment`. */
import type { EnvironmentFactory } from './environment';
import { createRobotEnvironment } from './robot/robotEnvironment';

export const ENVIRONMENTS: Record<string, EnvironmentFactory> = {
  mujoco: (instance) => createRobotEnvironment(instance),
};
