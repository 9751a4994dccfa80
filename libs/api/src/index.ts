export * from './labels';
export * from './entry';
export * from './matcher';
export * from './routes';
export * from './tenant';
export * from './status';
export * from './query-responses';
export * from './query-result';
