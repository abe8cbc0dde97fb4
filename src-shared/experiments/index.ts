export * from './spec';
export * from './stats';
export * from './paired';
export * from './report';
export * from './compare';
export * from './plots';
export * from './format';
export * from './reportSchema';
