import type { OpenDialogOptions, SaveDialogOptions } from 'electron';
import type { z } from 'zod';
import { OpenFileDialogOptions, SaveFileDialogOptions } from '../../src-shared/electronIpc';

/** Everything from the renderer is untrusted: validate it, and say exactly what was wrong. */
export function parseIpcArg<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  throw new Error(`${what}: invalid options: ${details}`);
}

export function openDialogOptions(raw: unknown): OpenDialogOptions {
  const opts = parseIpcArg(OpenFileDialogOptions, raw, 'openFileDialog');
  const properties: OpenDialogOptions['properties'] = [opts.directory ? 'openDirectory' : 'openFile'];
  if (opts.multiple) properties.push('multiSelections');
  return { title: opts.title, filters: opts.filters, properties };
}

export function saveDialogOptions(raw: unknown): SaveDialogOptions {
  const opts = parseIpcArg(SaveFileDialogOptions, raw, 'saveFileDialog');
  return { title: opts.title, defaultPath: opts.defaultPath, filters: opts.filters, properties: ['createDirectory', 'showOverwriteConfirmation'] };
}
