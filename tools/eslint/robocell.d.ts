// Types for robocell.js (plain JavaScript, so eslint.config.js loads it without a build step).
import type { ESLint } from 'eslint';

declare const plugin: ESLint.Plugin;
export default plugin;
export function resolveRelative(fromFile: string, specifier: string): string | null;
