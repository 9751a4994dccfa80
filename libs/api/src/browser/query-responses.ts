// Response bodies of the read endpoints, as Loki writes them (JSON shapes).

export type LabelRecord = Record<string, string>;

/** `[seconds, "value"]`: seconds since the epoch with a fraction, the value as Go prints it. */
export type SamplePair = [number, string];

export interface VectorItem {
  metric: LabelRecord;
  value: SamplePair;
}

export interface MatrixItem {
  metric: LabelRecord;
  values: SamplePair[];
}

/** The third element of an entry under `categorize-labels`; keys present when not empty. */
export interface EntryCategoriesJson {
  structuredMetadata?: LabelRecord;
  parsed?: LabelRecord;
}

/** `[nanoseconds as a string, line]`, plus the entry's label categories when asked for. */
export type StreamValue = [string, string] | [string, string, EntryCategoriesJson];

export interface StreamItem {
  stream: LabelRecord;
  values: StreamValue[];
}

export type QueryResultType = 'streams' | 'vector' | 'matrix' | 'scalar';

export interface QueryResponseData {
  resultType: QueryResultType;
  /** `["categorize-labels"]` when the request asked for label categories. */
  encodingFlags?: string[];
  result: StreamItem[] | VectorItem[] | MatrixItem[] | SamplePair;
  /** Loki's `stats.proto` layout (summary, querier, ingester, cache, index) plus `store`. */
  stats: Record<string, unknown>;
}

/** `query`, `query_range`, `index/volume` and `index/volume_range`. */
export interface QueryResponse {
  status: 'success';
  data: QueryResponseData;
}

/** `labels` and `label/<name>/values`; `data` is omitted when empty. */
export interface LabelsResponse {
  status: 'success';
  data?: string[];
}

export interface SeriesResponse {
  status: 'success';
  data: LabelRecord[];
}

/** `index/stats`. */
export interface IndexStatsResponse {
  streams: number;
  chunks: number;
  bytes: number;
  entries: number;
}

/** `format_query`: `data` on success, `error` with status `invalid-query` on a parse error. */
export interface FormatQueryResponse {
  status: 'success' | 'invalid-query';
  data?: string;
  error?: string;
}
