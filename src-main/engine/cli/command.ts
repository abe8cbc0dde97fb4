/** One `robocell` subcommand. Commands print to stdout and return the process exit code. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}

/** An error whose message is shown to the user as is (no stack), with exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The options that name a task instance, shared by every command that builds one. */
export const INSTANCE_OPTIONS = {
  task: { type: 'string' },
  variant: { type: 'string', default: 'default' },
  seed: { type: 'string', default: '0' },
} as const;

/** The instance named by INSTANCE_OPTIONS' values; a UsageError for a missing task or a bad seed. */
export function instanceFromArgs(values: { task?: string; variant: string; seed: string }): { taskId: string; variant: string; seed: number } {
  if (!values.task) throw new UsageError('--task is required (list them with `robocell tasks`)');
  const seed = Number(values.seed);
  if (!Number.isInteger(seed) || seed < 0) throw new UsageError(`--seed must be a non-negative integer, got "${values.seed}"`);
  return { taskId: values.task, variant: values.variant, seed };
}
