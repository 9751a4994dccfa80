export * from './cache';
export * from './split/split';
