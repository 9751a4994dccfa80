/** The metric half of the LogQL engine. */
export { evaluateMetricQuery } from './query';
export { evaluateOverDownstream } from './evaluate';
export type { DownstreamAnswer } from './answered-evaluator';
export { formatSampleValue, formatTimestampSeconds } from './format';
export {
  DEFAULT_MAX_QUERY_SERIES,
  type MatrixSeries,
  type MetricQueryParams,
  type MetricResult,
  type VectorSample,
} from './types';
export {
  InvalidFunctionArgumentError,
  MetricQueryError,
  PipelineError,
  QueryCanceledError,
  SeriesLimitError,
  VectorMatchingError,
} from './errors';
export { buildSampleExtractor } from './extractor';
export { createSampleExtractorBuilder, type PipelineCompiler } from './extractor-builder';
export type { CompiledSampleQuery, SampleExtractorBuilder } from './context';
