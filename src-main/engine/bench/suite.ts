/**
 * What a bench suite is. Its own module so that the suites and the registry (main.ts) that lists
 * them do not import each other.
 */
export interface BenchSuite {
  name: string;
  run(): Promise<void>;
}
