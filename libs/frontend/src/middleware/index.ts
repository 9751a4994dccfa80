export * from './query-frontend';
export * from './answer-cache';
export * from './limits';
