// `@logsvc/api/browser`: the part of the API model that runs anywhere, a browser included (the
// admin UI, the operator). It imports nothing outside this folder and uses no Node globals;
// eslint.config.mjs enforces both.
export * from './routes';
export * from './tenant';
export * from './status';
export * from './query-responses';
export * from './delete-requests';
export * from './rules';
export * from './ring-status';
export * from './admin';
export * from './cache-stats';
