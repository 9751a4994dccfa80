// `@logsvc/api`: the server-side model (labels, entries, matchers, query results) plus
// everything of `@logsvc/api/browser`, so one import serves server code.
export * from './browser';
export * from './labels';
export * from './entry';
export * from './matcher';
export * from './query-result';
export * from './shard';
export * from './bytes-hash';
