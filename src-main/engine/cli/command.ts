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
