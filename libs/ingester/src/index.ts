export * from './config';
export * from './errors';
export { Ingester } from './ingester';
export type { AppendListener, IngesterOptions, LabelQuery, PushOutcome } from './ingester';
export type { IngesterLogger } from './logger';
export { SILENT_LOGGER } from './logger';
export type { IngesterCounters } from './metrics';
export { MergedCursor } from './merge-cursor';
export { newQueryStats } from './query';
export type {
  ChunkRead,
  IngesterQueryStats,
  ReadOptions,
  StreamQueryResult,
  TimeRange,
} from './query';
export type { ChunkSink, FlushedChunk } from './sink';
export type { ReplayResult } from './wal/wal';
export { WalLockedError } from './wal/dir-lock';
export { LocalIngesterClient, NoIngesterError } from './client';
export type {
  IngesterClient,
  IngesterQueryClient,
  IngesterReadStats,
  IngesterSelect,
  StreamVolume,
} from './client';
export { UNREACHED } from './memory-snapshot';
export type { IngesterMemory, MemorySelect, MemorySnapshot } from './memory-snapshot';
export { type MemoryFetch, SnapshotIngesterClient } from './snapshot-client';
export { ADMIT_ALL } from './stream-admission';
export type { StreamAdmission, StreamAdmissionSource } from './stream-admission';
export { TailHub } from './tail-hub';
export type { TailListener, TailSubscription } from './tail-hub';
export { SHUTDOWN_MARKER_FILE, ShutdownMarker } from './shutdown-marker';
export { ProcessTerminator } from './process-terminator';
