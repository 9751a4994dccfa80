export { PushError, MISSING_STREAMS_MESSAGE, type PushErrorOptions } from './errors';
export { DEFAULT_PUSH_LIMITS, type PushLimits } from './limits';
export {
  snappyDeclaredLength,
  snappyUncompress,
  snappyUncompressSync,
  gunzipBounded,
  inflateRawBounded,
} from './decompress';
export { LabelsCache, parseStreamLabels } from './labels-cache';
export { decodeLokiProtobuf, lokiProtobufStreams } from './loki-proto-decode';
export { lokiJsonStreams, SLICED_JSON_MIN_BYTES } from './loki-json-streams';
export { STREAM_PIECE_ENTRIES } from './stream-pieces';
export { encodePushProtobuf, encodePushProtobufRaw } from './loki-proto-encode';
export { decodeLokiJson, encodePushJson, NOT_A_STRING_MESSAGE } from './loki-json';
export { normalizeLabelName } from './normalize-label';
export type {
  OtlpAnyValue,
  OtlpKeyValue,
  OtlpLogRecord,
  OtlpLogsRequest,
  OtlpResourceLogs,
  OtlpScopeLogs,
} from './otlp-schema';
export { decodeOtlpProtobuf } from './otlp-proto';
export { decodeOtlpJson } from './otlp-json';
export { encodeOtlpProtobuf, encodeOtlpJson } from './otlp-encode';
export { anyValueAsString } from './otlp-values';
export {
  otlpToPushRequest,
  DEFAULT_OTLP_INDEX_LABEL_ATTRIBUTES,
  type OtlpMappingOptions,
} from './otlp-map';
export {
  decodePushBody,
  decodePushBodyStreams,
  decodeOtlpBody,
  decodeOtlpBodyStreams,
  OTLP_THREAD_MIN_BYTES,
  type PushStreams,
  type PushBodyStreams,
  type DecodeBodyOptions,
  type DecodeOtlpOptions,
} from './decode-body';
export { DiscardReason, DiscardCounts, entrySize, type DiscardCount } from './discards';
export { LevelDetector, levelFromSeverityNumber, DETECTED_LEVEL } from './level-detection';
export {
  validatePush,
  PushValidator,
  type PushValidationResult,
  type ValidationLimits,
} from './validate';
export { TokenBucket } from './token-bucket';
export {
  IngestionRateLimiter,
  type IngestionRateLimits,
  type RateLimiterOptions,
} from './rate-limiters';
export {
  checkBlockedIngestion,
  blockedUntilMs,
  type BlockIngestionLimits,
} from './block-ingestion';
export { OtlpDecodeThread } from './otlp-decode-thread';
