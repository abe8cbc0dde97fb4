/**
 * The experiment worker process's own entry (built as out/node/experiment-worker.mjs): it loads what
 * an episode needs and nothing of the CLI's other commands (the studio server, the queue's
 * libraries), which takes a third less start-up than `robocell experiment worker`, the same
 * workerMain behind the CLI's name.
 */
import { exitWhenIdle } from '../cells/exit';
import { workerMain } from './workerMain';

// workerMain exits itself once it served its parent; it returns only when started without one.
await exitWhenIdle(await workerMain());
