/** A spec's keys (task ids, families or prefixes × variants × seeds × repeats × arms), its hash and the versions it runs on. */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExperimentKey, ExperimentSpec, ExperimentVersions } from '../../../src-shared/experiments';
import { ENGINE_VERSION } from '../../../src-shared/version';
import type { TaskListing } from '../environments/contract/environment';
import { ENVIRONMENT_ENTRIES } from '../environments/index';
import { packageRoot } from '../paths';

export class SpecError extends Error {
  override name = 'SpecError';
}

/** Every environment's tasks, in registry order. */
const allTasks = (): TaskListing[] => ENVIRONMENT_ENTRIES.flatMap((e) => [...e.tasks()]);

/**
 * One entry of a spec's `tasks`: a task id, a family, or a prefix ending in `*` (`robotwin/*`: every
 * task whose id starts with `robotwin/`, whatever tasks are registered when it runs), each
 * optionally followed by `@VARIANT` (`robocasa/*@heldout`), which replaces the spec's variants
 * for the tasks it selects.
 */
export interface TaskSelector {
  name: string;
  /** Null: the spec's variants. */
  variant: string | null;
}

export function parseSelector(entry: string): TaskSelector {
  const at = entry.indexOf('@');
  return at < 0 ? { name: entry, variant: null } : { name: entry.slice(0, at), variant: entry.slice(at + 1) || null };
}

/** The tasks one selector picks, in registry order; a prefix may pick none (a suite not built here). */
function selectTasks(tasks: readonly TaskListing[], name: string): TaskListing[] {
  if (name.endsWith('*')) return tasks.filter((t) => t.id.startsWith(name.slice(0, -1)));
  if (tasks.some((t) => t.family === name)) return tasks.filter((t) => t.family === name);
  if (tasks.some((t) => t.id === name)) return tasks.filter((t) => t.id === name);
  // a suite by its ids' folder: `libero-pro/goal` is every `libero-pro/goal/…` task
  if (tasks.some((t) => t.id.startsWith(`${name}/`))) return tasks.filter((t) => t.id.startsWith(`${name}/`));
  const families = [...new Set(tasks.map((t) => t.family))];
  throw new SpecError(`unknown task or family "${name}" (families: ${families.join(', ')}; a prefix ends in *, e.g. robotwin/*; tasks: robocell tasks)`);
}

/** Task ids, families and prefixes to tasks (of any environment), in suite order, each once. */
export function resolveTasks(names: readonly string[]): TaskListing[] {
  const tasks = allTasks();
  const picked = new Set<string>();
  for (const n of names) for (const t of selectTasks(tasks, parseSelector(n).name)) picked.add(t.id);
  return tasks.filter((t) => picked.has(t.id));
}

/** Each selector of a spec with the number of tasks it picks now (a prefix of a suite not registered picks 0). */
export function selectorCounts(names: readonly string[]): Array<{ selector: string; tasks: number }> {
  const tasks = allTasks();
  return names.map((n) => ({ selector: n, tasks: selectTasks(tasks, parseSelector(n).name).length }));
}

/** A variant a task accepts: one it lists, or (LIBERO-PRO's axes) listed ids joined by `+`. */
function acceptsVariant(task: TaskListing, v: string): boolean {
  const ids = task.variants.map((x) => x.id);
  return ids.includes(v) || (v.includes('+') && v.split('+').every((p) => ids.includes(p)));
}

/**
 * Every key of a spec in run order: both arms of an instance next to each other, so that a run
 * stopped early leaves complete pairs; and, where the spec's task entries pick different tasks
 * (the study: one entry per suite), the entries' instances spread evenly through the run, so a
 * run stopped early has sampled every entry in proportion and a worker meets every suite's
 * scenes early rather than one suite's caches after another's.
 */
export function expandSpec(spec: ExperimentSpec): ExperimentKey[] {
  const all = allTasks();
  // A task picked by several selectors runs under the variants of each, once per variant; it
  // belongs to the first entry that picks it.
  const variantsOf = new Map<string, string[]>();
  const entryOf = new Map<string, number>();
  spec.tasks.forEach((entry, entryIndex) => {
    const sel = parseSelector(entry);
    for (const task of selectTasks(all, sel.name)) {
      const ids = task.variants.map((v) => v.id);
      const variants = sel.variant ? [sel.variant] : spec.variants.includes('all') ? ids : spec.variants;
      for (const v of variants)
        if (!acceptsVariant(task, v))
          throw new SpecError(`task ${task.id} has no variant "${v}" (it has ${ids.join(', ')}); use --variants all for each task's own`);
      const had = variantsOf.get(task.id) ?? [];
      variantsOf.set(task.id, [...had, ...variants.filter((v) => !had.includes(v))]);
      if (!entryOf.has(task.id)) entryOf.set(task.id, entryIndex);
    }
  });
  // Instances (every arm of one task × variant × seed × repeat), per entry, in registry order.
  const byEntry: ExperimentKey[][][] = spec.tasks.map(() => []);
  for (const task of all) {
    const variants = variantsOf.get(task.id);
    if (!variants) continue;
    const group = byEntry[entryOf.get(task.id) ?? 0];
    for (const variant of variants)
      for (const seed of spec.seeds)
        for (let repeat = 0; repeat < spec.repeats; repeat++) group.push(spec.arms.map((arm) => ({ taskId: task.id, variant, seed, repeat, arm })));
  }
  const keys = spreadEvenly(byEntry.filter((g) => g.length > 0)).flat();
  if (keys.length === 0) throw new SpecError('the spec expands to no episodes');
  return keys;
}

/**
 * Merges lists keeping each one's order, so that list i's j-th item lands near fraction
 * (j + ½) / length of the whole: 400, 500 and 500 items come out evenly mixed, not in turns that
 * leave the longer lists' tails to the end. Ties go to the earlier list, so the merge is stable.
 */
export function spreadEvenly<T>(lists: readonly (readonly T[])[]): T[] {
  if (lists.length === 1) return [...lists[0]];
  const next = lists.map(() => 0);
  const out: T[] = [];
  const total = lists.reduce((n, l) => n + l.length, 0);
  while (out.length < total) {
    let best = -1;
    let bestAt = Infinity;
    lists.forEach((l, i) => {
      if (next[i] >= l.length) return;
      const at = (next[i] + 0.5) / l.length;
      if (at < bestAt) {
        bestAt = at;
        best = i;
      }
    });
    out.push(lists[best][next[best]++]);
  }
  return out;
}

export function familyOf(taskId: string): string {
  return allTasks().find((t) => t.id === taskId)?.family ?? 'unknown';
}

/** JSON with sorted keys, so equal specs hash equally whatever order their fields were written in. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

export function specHash(spec: ExperimentSpec): string {
  return createHash('sha256').update(canonicalJson(spec)).digest('hex');
}

function packageVersion(name: string): string {
  const p = join(packageRoot(), 'node_modules', name, 'package.json');
  return existsSync(p) ? String((JSON.parse(readFileSync(p, 'utf8')) as { version?: unknown }).version ?? '?') : '?';
}

/**
 * The task suite's identity: every environment's tasks with id, family, setting (robot, …),
 * instruction and variants. A changed task changes it, so results from before and after are not mixed.
 */
export function taskSuiteVersion(): string {
  const tasks = allTasks();
  const desc = tasks.map((t) => ({ id: t.id, family: t.family, robot: t.detail, instruction: t.instruction, variants: t.variants.map((v) => v.id) }));
  return `${tasks.length}-tasks-${createHash('sha256').update(canonicalJson(desc)).digest('hex').slice(0, 12)}`;
}

export function currentVersions(): ExperimentVersions {
  return { robocell: ENGINE_VERSION, taskSuite: taskSuiteVersion(), mujoco: packageVersion('@mujoco/mujoco') };
}

/** Null when equal, else a sentence naming what differs. */
export function versionMismatch(recorded: ExperimentVersions, now: ExperimentVersions): string | null {
  const diffs = (Object.keys(recorded) as Array<keyof ExperimentVersions>)
    .filter((k) => recorded[k] !== now[k])
    .map((k) => `${k} ${recorded[k]} (recorded) vs ${now[k]} (this engine)`);
  return diffs.length ? diffs.join(', ') : null;
}
