import { bool, duration, int, oneOf, section, size, str, flag } from '../fields';
import { lifecyclerSection } from './ring';

export const CHUNK_ENCODINGS = ['none', 'gzip', 'lz4', 'snappy', 'zstd'] as const;

/** `ingester`: chunk building, flushing and the write-ahead log. */
export const ingesterSection = section({
  chunk_target_size: flag('ingester.chunk-target-size', size(1_572_864)),
  // Loki's default is 256KB. Snappy compresses in 64 KiB fragments, so smaller blocks cost ~2 %
  // of compression while a log query decodes a quarter of the bytes per stream (see
  // docs/benchmarks-history.md, "Smaller blocks").
  chunk_block_size: flag('ingester.chunks-block-size', size(65_536)),
  // Loki's default is gzip (logsvc's was snappy until issue 45's eleventh wave). zstd at its
  // fast level costs the push path what snappy does, stores ~14 % fewer bytes, and is the one
  // codec a query decodes into reused buffers: the ingesters' `|=` and `|~` counts ran 8–18 %
  // faster (docs/benchmarks-history.md, eleventh wave).
  chunk_encoding: flag('ingester.chunk-encoding', oneOf(CHUNK_ENCODINGS, 'zstd')),
  chunk_idle_period: flag('ingester.chunks-idle-period', duration(30 * 60_000)),
  chunk_retain_period: flag('ingester.chunks-retain-period', duration(0)),
  max_chunk_age: flag('ingester.max-chunk-age', duration(2 * 3600_000)),
  flush_check_period: flag('ingester.flush-check-period', duration(30_000)),
  flush_op_timeout: flag('ingester.flush-op-timeout', duration(10 * 60_000)),
  concurrent_flushes: flag('ingester.concurrent-flushes', int(32, 1)),
  max_returned_stream_errors: flag('ingester.max-ignored-stream-errors', int(10)),
  // logsvc's own: streams in memory over all tenants (0: no limit), so many tenants' stream
  // allowances together cannot exhaust the process's memory.
  max_global_streams: flag('ingester.max-global-streams', int(500_000, 0)),
  // logsvc's own: uncompressed head-block bytes over all streams; past it the largest heads are
  // cut into compressed blocks early (0: no limit), so many slow streams cannot hold hundreds
  // of MB of lines uncompressed while none reaches chunk_block_size.
  max_head_block_bytes: flag('ingester.max-head-block-bytes', size(32 * 1024 * 1024)),
  // logsvc's own: with the WAL on, compressed chunk blocks are written to files under
  // `<wal.dir>/block-spill` and read back when needed, so memory holds their metadata only.
  spill_chunk_blocks: flag('ingester.spill-chunk-blocks', bool(true)),
  query_store_max_look_back_period: flag('ingester.query-store-max-look-back-period', duration(0)),
  lifecycler: lifecyclerSection(),
  wal: section({
    enabled: flag('ingester.wal-enabled', bool(true)),
    // Empty means `<common.path_prefix>/wal`.
    dir: flag('ingester.wal-dir', str('')),
    checkpoint_duration: flag('ingester.checkpoint-duration', duration(5 * 60_000)),
    flush_on_shutdown: flag('ingester.flush-on-shutdown', bool(false)),
    replay_memory_ceiling: flag('ingester.wal-replay-memory-ceiling', size(4 * 1024 ** 3)),
  }),
});
