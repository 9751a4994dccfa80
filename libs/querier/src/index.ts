export {
  type PoolMemorySettings,
  Querier,
  type QuerierOptions,
  type VolumeRequest,
  type VolumeSample,
} from './querier';
export {
  type PrepareOptions,
  type PreparedQuery,
  type QueryRequest,
  emptyAnswer,
  prepareQuery,
} from './query-executor';
export type { QueryLimits } from './query-limits';
export { ParamError, QueryAbortedError, VolumesDisabledError } from './errors';
export { type AggregateBy, VolumeLimitError, volumeMetric } from './volume';
export { type ReadWindowSettings } from './read-window';
export * from './store-reader';
export type { DetectedFieldsRequest, DetectedLabelsRequest } from './detected-queries';
export type { DetectedField } from './detected-fields';
export type { DetectedFieldType } from './detected-field-type';
export type { DetectedLabel } from './detected-labels';
export {
  Tailer,
  DEFAULT_TAILER_LIMITS,
  MAX_ENTRIES_PER_FRAME,
  type TailerLimits,
} from './tail/tailer';
export { TailLimitError, TailMaxDurationError, TailMetricQueryError } from './tail/tail-errors';
export type {
  DroppedEntry,
  TailEntry,
  TailFrame,
  TailOutput,
  TailRequest,
} from './tail/tail-types';
export type { LineDeletions, DeletedLineFn } from './deletion-source';
export type { LineDeletionFilter } from './deletion-source';
export type { PoolQuery, SnapshotSource } from './query-pool/pool-query';
export {
  QueryWorkerPool,
  type QueryWorkerPoolOptions,
  queryPoolFor,
} from './query-pool/query-worker-pool';
export { QueryPoolClosedError, QueryWorkerExitedError } from './query-pool/worker-errors';
export { runPooledQuery } from './query-pool/run-query';
export { ChunkDecoder, chunkDecoder, DEFAULT_BLOCK_CACHE_MB } from './chunk-decoder';
export * from './query-api';
