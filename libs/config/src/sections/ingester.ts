import { bool, duration, int, oneOf, section, size, str } from '../fields';

export const CHUNK_ENCODINGS = ['none', 'gzip', 'lz4', 'snappy', 'zstd'] as const;

/** `ingester`: chunk building, flushing and the write-ahead log. */
export const ingesterSection = section({
  chunk_target_size: size(1_572_864),
  chunk_block_size: size(262_144),
  chunk_encoding: oneOf(CHUNK_ENCODINGS, 'snappy'),
  chunk_idle_period: duration(30 * 60_000),
  chunk_retain_period: duration(0),
  max_chunk_age: duration(2 * 3600_000),
  flush_check_period: duration(30_000),
  flush_op_timeout: duration(10 * 60_000),
  concurrent_flushes: int(32, 1),
  max_returned_stream_errors: int(10),
  query_store_max_look_back_period: duration(0),
  lifecycler: section({
    // The ring token file `/ingester/shutdown?delete_ring_tokens=true` deletes; empty: none.
    tokens_file_path: str(''),
  }),
  wal: section({
    enabled: bool(true),
    // Empty means `<common.path_prefix>/wal`.
    dir: str(''),
    checkpoint_duration: duration(5 * 60_000),
    flush_on_shutdown: bool(false),
    replay_memory_ceiling: size(4 * 1024 ** 3),
  }),
});
