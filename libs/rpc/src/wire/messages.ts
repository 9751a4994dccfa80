import { messageCodec } from './codec';

/**
 * The messages of schema.ts as TypeScript sees them. int64/uint64 fields are decimal strings
 * (`String(n)` to send, `Number(s)` or `BigInt(s)` on receipt).
 */
export type Int64 = string;

export interface WireLabelPair {
  readonly name: string;
  readonly value: string;
}

export interface WireMatcher {
  readonly type: number;
  readonly name: string;
  readonly value: string;
}

export interface WireMatcherList {
  readonly matchers: readonly WireMatcher[];
}

export interface WireStreamError {
  readonly kind: string;
  readonly reason: string;
  readonly message: string;
  readonly discardedEntries: Int64;
  readonly discardedBytes: Int64;
}

export interface WirePushResponse {
  readonly appended: Int64;
  readonly appendedBytes: Int64;
  readonly duplicates: Int64;
  readonly errors: readonly WireStreamError[];
}

export interface WireQueryRequest {
  readonly matchers: readonly WireMatcher[];
  readonly fromNs: Int64;
  readonly throughNs: Int64;
  readonly direction: number;
  readonly lineContains: Buffer;
  readonly shard: string;
}

export interface WireIngesterStats {
  readonly totalChunksMatched: Int64;
  readonly headChunkBytes: Int64;
  readonly headChunkLines: Int64;
  readonly compressedBytes: Int64;
}

export interface WireLabelRequest {
  readonly name: string;
  readonly values: boolean;
  readonly fromNs: Int64;
  readonly throughNs: Int64;
  readonly matchers: readonly WireMatcher[];
}

export interface WireLabelResponse {
  readonly values: readonly string[];
}

export interface WireSeriesRequest {
  readonly fromNs: Int64;
  readonly throughNs: Int64;
  readonly groups: readonly WireMatcherList[];
}

export interface WireSeriesResponse {
  readonly series: readonly { readonly labels: readonly WireLabelPair[] }[];
}

export interface WireTailersCountResponse {
  readonly count: number;
}

export interface WireTailRequest {
  readonly matchers: readonly WireMatcher[];
}

export interface WireRangeRequest {
  readonly matchers: readonly WireMatcher[];
  readonly fromNs: Int64;
  readonly throughNs: Int64;
}

export interface WireStreamVolumeResponse {
  readonly volumes: readonly { readonly labels: readonly WireLabelPair[]; readonly bytes: Int64 }[];
}

export interface WireChunkRef {
  readonly fromNs: Int64;
  readonly throughNs: Int64;
  readonly entries: Int64;
  readonly size: Int64;
  readonly uncompressedSize: Int64;
  readonly key: string;
  readonly checksum: number;
}

export interface WireGetChunkRefResponse {
  readonly series: readonly {
    readonly labels: readonly WireLabelPair[];
    readonly fingerprint: string;
    readonly chunks: readonly WireChunkRef[];
  }[];
}

export interface WireIndexStatsResponse {
  readonly streams: Int64;
  readonly chunks: Int64;
  readonly bytes: Int64;
  readonly entries: Int64;
}

export interface WireVolumeResponse {
  readonly volumes: readonly {
    readonly labels: readonly WireLabelPair[];
    readonly bytes: Int64;
    readonly entries: Int64;
    readonly chunks: Int64;
  }[];
}

export interface WirePatternQueryRequest {
  readonly matchers: readonly WireMatcher[];
  readonly fromMs: Int64;
  readonly throughMs: Int64;
  readonly stepMs: Int64;
}

export interface WireQueryPatternsResponse {
  readonly series: readonly {
    readonly pattern: string;
    readonly samples: readonly { readonly timestamp: Int64; readonly value: Int64 }[];
  }[];
}

export const PATTERN_QUERY_REQUEST = messageCodec<WirePatternQueryRequest>('PatternQueryRequest');
export const QUERY_PATTERNS_RESPONSE =
  messageCodec<WireQueryPatternsResponse>('QueryPatternsResponse');
export const PUSH_RESPONSE = messageCodec<WirePushResponse>('PushResponse');
export const QUERY_REQUEST = messageCodec<WireQueryRequest>('QueryRequest');
export const INGESTER_STATS = messageCodec<WireIngesterStats>('IngesterStats');
export const LABEL_REQUEST = messageCodec<WireLabelRequest>('LabelRequest');
export const LABEL_RESPONSE = messageCodec<WireLabelResponse>('LabelResponse');
export const SERIES_REQUEST = messageCodec<WireSeriesRequest>('SeriesRequest');
export const SERIES_RESPONSE = messageCodec<WireSeriesResponse>('SeriesResponse');
export const RANGE_REQUEST = messageCodec<WireRangeRequest>('RangeRequest');
export const TAIL_REQUEST = messageCodec<WireTailRequest>('TailRequest');
export const TAILERS_COUNT_RESPONSE =
  messageCodec<WireTailersCountResponse>('TailersCountResponse');
export const STREAM_VOLUME_RESPONSE =
  messageCodec<WireStreamVolumeResponse>('StreamVolumeResponse');
export const GET_CHUNK_REF_RESPONSE = messageCodec<WireGetChunkRefResponse>('GetChunkRefResponse');
export const INDEX_STATS_RESPONSE = messageCodec<WireIndexStatsResponse>('IndexStatsResponse');
export const VOLUME_RESPONSE = messageCodec<WireVolumeResponse>('VolumeResponse');
