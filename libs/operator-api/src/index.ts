// @logsvc/operator-api: the LogService resource (schema, types, CRD, validation, reference).
// Browser-safe: no Node modules, no Node globals (eslint.config.mjs enforces it).
export * from './schema';
export * from './logservice';
export * from './rule';
