/**
 * What the agent loop sees of a world. The MuJoCo robot world is the first environment; any other
 * (an inventory API, say) plugs in by offering a primitive registry, observations and a judge.
 */
import type { CellDetail, InstanceRef } from '../../../src-shared/episode';
import type { LedgerEntry, NamedArgs, PrimitiveRegistry } from '../primitives/types';

export interface Observation {
  label: string;
  png: Uint8Array;
  widthPx: number;
  heightPx: number;
}

export interface ToolOutcome {
  ok: boolean;
  result?: unknown;
  error?: string;
  /** True when the call ended because the task was already solved. */
  finished?: boolean;
}

export interface CellOutcome {
  ok: boolean;
  /** What the cell printed, then its value or error: the model's "pure" feedback. */
  text: string;
  /** Images the cell asked for (robo.show and the like). */
  images: Observation[];
  detail: CellDetail;
}

export interface Environment {
  /** "mujoco", "toy", … recorded in meta.json. */
  readonly kind: string;
  readonly instance: InstanceRef;
  /** The task card: what the model is asked to do, in words. */
  readonly instruction: string;
  readonly registry: PrimitiveRegistry;
  /** Camera names observations can be taken from. */
  readonly cameras: readonly string[];
  /** The primitive calls so far (the ledger). */
  ledger(): readonly LedgerEntry[];
  callPrimitive(name: string, args: NamedArgs): Promise<ToolOutcome>;
  runCell(code: string, opts: { signal?: AbortSignal; maxSimSteps: number; maxWallMs: number }): Promise<CellOutcome>;
  /** Camera images; an empty list when this environment cannot render. */
  observe(cameras: readonly string[]): Promise<Observation[]>;
  /** A compact state summary for the model (robot pose, gripper, …), JSON-serialisable. */
  state(): unknown;
  judge(): { success: boolean; reason: string };
  /** True once the success predicate has held after a motion: the episode is over. */
  solved(): boolean;
  simSteps(): number;
  stateHash(): string;
  /** The full state, serialised, for the studio's timeline. */
  snapshot(): string;
  versions(): Record<string, string>;
  modelFileHashes(): Record<string, string>;
  dispose(): void;
}

export type EnvironmentFactory = (instance: InstanceRef) => Promise<Environment>;
