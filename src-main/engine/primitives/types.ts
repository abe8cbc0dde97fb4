/**
 * The contract between an environment's primitives and the two arms. Both the
 * code arm (cells call `robo.NAME(positional..., options)`) and the tool-calling arm (one tool per
 * primitive with a flat JSON object of arguments) reach the same `invoke`, so neither can offer
 * the model something the other lacks.
 */
import type { z } from 'zod';

export interface ParamDoc {
  name: string;
  /** TypeScript-ish type shown to the model, e.g. "[x, y, z] metres" or "number". */
  type: string;
  doc: string;
  /** zod schema that validates this argument; the JSON schema for tools is derived from it. */
  schema: z.ZodType;
  optional?: boolean;
}

export interface ResultFieldDoc {
  name: string;
  type: string;
  doc: string;
}

export interface PrimitiveSpec {
  name: string;
  summary: string;
  /** Required arguments, passed positionally in cells. */
  positional: ParamDoc[];
  /** Optional arguments, passed as one trailing options object in cells. */
  options: ParamDoc[];
  returns: ResultFieldDoc[];
  /** True when the primitive moves the robot (the tool-calling arm attaches images after these). */
  motion: boolean;
  /**
   * An acting primitive whose call is the agent's answer (the inventory's report): the first call
   * is final. The episode ends after it, judged right or wrong, and later acting calls throw
   * EpisodeFinished, in a cell as in the tool-calling arm, so no arm can hedge with several answers.
   */
  submits?: boolean;
  /**
   * A pure read of the world: its result depends only on the world's state and its arguments, and
   * calling it changes nothing. A cell may answer a repeat of such a call from the last answer until
   * it calls anything else (cells/bridge.ts, the query cache); the repeat is still recorded.
   */
  cacheable?: boolean;
  /**
   * The errors a call can raise, one sentence each naming the error type ("PrimitiveError: …",
   * "EpisodeFinished: …"). Both arms get them; an empty list documents that the call never fails.
   */
  errors?: string[];
}

/** Errors every primitive with parameters can raise; the registry checks arguments before any call runs. */
export const ARGUMENT_ERROR = 'PrimitiveError: an argument is missing, unknown or of the wrong type (the message names it and says what it must be).';
/** The error doc of every motion primitive once the judge has ended the episode: one text in both arms' docs. */
export const EPISODE_FINISHED_ERROR = 'EpisodeFinished: the task is already solved; the episode is over and the robot no longer moves.';

/** Named arguments: the positional ones by their names plus the option fields. */
export type NamedArgs = Record<string, unknown>;

export interface Primitive {
  spec: PrimitiveSpec;
  invoke(args: NamedArgs): Promise<unknown>;
  /**
   * Records a call of a cacheable primitive that was answered, with `result`, from an earlier
   * identical call's answer (the ledger gets the entry an invocation would have made).
   */
  recordRepeat?(args: NamedArgs, result: unknown): void;
}

export interface PrimitiveRegistry {
  list(): PrimitiveSpec[];
  get(name: string): Primitive | undefined;
}

/** Thrown for misuse: bad arguments, unknown object, unreachable target. Message says what was wrong. */
export class PrimitiveError extends Error {
  override name = 'PrimitiveError';
}

/** Thrown by every motion once the task's success predicate has held. Cells must not swallow it. */
export class EpisodeFinished extends Error {
  override name = 'EpisodeFinished';
}

export interface LedgerEntry {
  index: number;
  name: string;
  args: NamedArgs;
  simSteps: number;
  wallMs: number;
  outcome: 'ok' | 'error' | 'finished';
  result?: unknown;
  error?: string;
}
