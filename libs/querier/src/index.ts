export { Querier, type QuerierOptions, type VolumeRequest, type VolumeSample } from './querier';
export type { QueryRequest } from './query-executor';
export { ParamError, QueryAbortedError, VolumesDisabledError } from './errors';
export { type AggregateBy, VolumeLimitError, volumeMetric } from './volume';
export { type ReadWindowSettings } from './read-window';
export * from './store-reader';
