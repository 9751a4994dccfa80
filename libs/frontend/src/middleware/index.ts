export * from './query-frontend';
export * from './answer-cache';
export * from './limits';
export * from './local-downstream';
export * from './create-frontend';
