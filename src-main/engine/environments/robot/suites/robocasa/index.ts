/** RoboCasa365's Target50 on our kitchens: the tasks this suite implements, by group (README). */
import type { TaskDef } from '../../tasks/types';
import { atomicTasks } from './atomic';
import { compositeTasks } from './composite';
import { moreCompositeTasks } from './composite2';
import { cuttingTasks } from './cutting';
import { sinkTasks } from './sink';
import { applianceTasks } from './appliance-tasks';
import { steamTasks } from './steam';
import { breadTasks } from './bread';
import { colanderTasks } from './colander';
import { diningTasks } from './dining-tasks';
import { presoakTasks } from './presoak';
import { stirTasks } from './stir';
import { navigateTasks } from './navigate';

export const robocasaTasks: readonly TaskDef[] = [
  ...atomicTasks,
  ...compositeTasks,
  ...moreCompositeTasks,
  ...cuttingTasks,
  ...applianceTasks,
  ...sinkTasks,
  ...steamTasks,
  ...breadTasks,
  ...colanderTasks,
  ...diningTasks,
  ...presoakTasks,
  ...stirTasks,
  ...navigateTasks,
];
