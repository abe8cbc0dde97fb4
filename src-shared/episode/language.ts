import type { CellLanguage } from './schema';

/**
 * The code arm's cell language when none is chosen: Python, as in the study (the model writes
 * Python through one `python(code)` tool). Every default that follows the code arm's language
 * (agent settings, environments, CLI flags, the studio's Run form and first start) reads this one.
 * Not the schema's default for a missing `language`: episodes and requests from before the field
 * existed were JavaScript, and stay so.
 */
export const DEFAULT_CELL_LANGUAGE: CellLanguage = 'python';
