// The query API's codec: Loki's request parameters parsed with Loki's error texts, answers
// encoded as Loki writes them (JSON, Parquet) and read back.
export { ParamError } from './param-error';
export * from './params/query-params';
export * from './params/selectors';
export * from './params/tail-params';
export * from './params/detected-params';
export * from './encode/encoding-flags';
export * from './encode/json';
export * from './encode/legacy-json';
export * from './encode/metric-json';
export * from './encode/parquet';
export * from './encode/query-json';
export * from './encode/stats-json';
export * from './encode/tail-json';
export * from './query-answer';
export type { SubQuery } from './sub-query';
export type { DroppedEntry, TailEntry, TailFrame } from './tail-frame';
export * from './query-job';
export * from './encode/read-json';
export * from './params/query-forms';
