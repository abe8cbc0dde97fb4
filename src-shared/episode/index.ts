export * from './messages';
export * from './schema';
export * from './migrate';
export * from './outcome';
export * from './language';
export * from './fold';
export * from './summary';
export * from './jsonl';
