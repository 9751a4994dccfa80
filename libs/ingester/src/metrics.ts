/**
 * Plain counters and gauges the app exports to prom-client. Counters only grow; the
 * `memory_*` gauges are current values. Field names are the metric names without a prefix.
 */
export interface IngesterCounters {
  streams_created_total: number;
  streams_removed_total: number;
  memory_streams: number;
  memory_chunks: number;
  entries_appended_total: number;
  bytes_appended_total: number;
  duplicate_entries_total: number;
  /** Discarded entries by reason (`too_far_behind`, `out_of_order`, `stream_limit`). */
  discarded_entries_total: Record<string, number>;
  discarded_bytes_total: Record<string, number>;
  /** Chunks cut by reason (`full`, `idle`, `max_age`, `forced`). */
  chunks_cut_total: Record<string, number>;
  /** Head blocks cut before chunk_block_size to keep the heads under max_head_block_bytes. */
  head_blocks_cut_early_total: number;
  chunks_flushed_total: number;
  /** Flushed chunks by the reason they were cut (`full`, `idle`, `max_age`, `forced`). */
  chunks_flushed_by_reason_total: Record<string, number>;
  chunks_flushed_bytes_total: number;
  chunks_flushed_uncompressed_bytes_total: number;
  chunks_flushed_entries_total: number;
  flush_failures_total: number;
  wal_records: number;
  wal_bytes: number;
  wal_fsyncs: number;
  wal_segments_created: number;
  wal_checkpoints_total: number;
  wal_checkpoint_failures_total: number;
  wal_checkpoint_bytes: number;
  wal_corruptions_total: number;
  wal_replayed_records_total: number;
  wal_replay_duration_ms: number;
}

export function newCounters(): IngesterCounters {
  return {
    streams_created_total: 0,
    streams_removed_total: 0,
    memory_streams: 0,
    memory_chunks: 0,
    entries_appended_total: 0,
    bytes_appended_total: 0,
    duplicate_entries_total: 0,
    discarded_entries_total: {},
    discarded_bytes_total: {},
    chunks_cut_total: {},
    head_blocks_cut_early_total: 0,
    chunks_flushed_total: 0,
    chunks_flushed_by_reason_total: {},
    chunks_flushed_bytes_total: 0,
    chunks_flushed_uncompressed_bytes_total: 0,
    chunks_flushed_entries_total: 0,
    flush_failures_total: 0,
    wal_records: 0,
    wal_bytes: 0,
    wal_fsyncs: 0,
    wal_segments_created: 0,
    wal_checkpoints_total: 0,
    wal_checkpoint_failures_total: 0,
    wal_checkpoint_bytes: 0,
    wal_corruptions_total: 0,
    wal_replayed_records_total: 0,
    wal_replay_duration_ms: 0,
  };
}

export function bump(map: Record<string, number>, key: string, by = 1): void {
  map[key] = (map[key] ?? 0) + by;
}
