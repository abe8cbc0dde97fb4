/** The cell runtime's public surface (see runtime.ts for the design). */
export { CellBusyError, mergeBudget, type CellLanguage, type CellRuntime, type CellRuntimeOptions, type RunCellOptions } from './cellRuntime';
export { createCellRuntime, languageOfFile, type CreateCellRuntimeOptions } from './factory';
export { JsCellRuntime } from './runtime';
export { defaultImageExtractor, toNamedArgs } from './bridge';
export { auditCell } from './audit';
export { parseCell, rewriteCell, RESERVED_GLOBALS } from './source';
export { registerCellHandlers, toRunResult, type CellHandlerOptions, type CellHandlers, type CellSessionWorld } from './handlers';
export { openEpisodeCellWorld } from './episodeWorld';
export * from './types';
