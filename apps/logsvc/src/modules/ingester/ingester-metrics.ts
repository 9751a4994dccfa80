import type { IngesterCounters } from '@logsvc/ingester';
import { Counter, Gauge, type Registry } from 'prom-client';

type NumericField = {
  [K in keyof IngesterCounters]: IngesterCounters[K] extends number ? K : never;
}[keyof IngesterCounters];
type ByReasonField = {
  [K in keyof IngesterCounters]: IngesterCounters[K] extends Record<string, number> ? K : never;
}[keyof IngesterCounters];

interface MetricSpec {
  /** Our name first, then Loki's name when Loki has the same metric. */
  readonly names: readonly string[];
  readonly help: string;
  readonly kind: 'counter' | 'gauge';
  /** Turns the library's value into the exported one (ms → seconds). */
  readonly scale?: number;
}

const NUMERIC: Readonly<Record<NumericField, MetricSpec>> = {
  streams_created_total: {
    names: ['logsvc_ingester_streams_created_total', 'loki_ingester_streams_created_total'],
    help: 'Streams created in memory.',
    kind: 'counter',
  },
  streams_removed_total: {
    names: ['logsvc_ingester_streams_removed_total', 'loki_ingester_streams_removed_total'],
    help: 'Streams removed from memory after their chunks were flushed.',
    kind: 'counter',
  },
  memory_streams: {
    names: ['logsvc_ingester_memory_streams', 'loki_ingester_memory_streams'],
    help: 'Streams held in memory.',
    kind: 'gauge',
  },
  memory_chunks: {
    names: ['logsvc_ingester_memory_chunks', 'loki_ingester_memory_chunks'],
    help: 'Chunks held in memory (head and closed).',
    kind: 'gauge',
  },
  entries_appended_total: {
    names: ['logsvc_ingester_entries_appended_total'],
    help: 'Entries stored by the ingester.',
    kind: 'counter',
  },
  bytes_appended_total: {
    names: ['logsvc_ingester_bytes_appended_total'],
    help: 'Line and structured metadata bytes stored by the ingester.',
    kind: 'counter',
  },
  duplicate_entries_total: {
    names: ['logsvc_ingester_duplicate_entries_total'],
    help: 'Entries dropped as identical (timestamp and line) to a stored one.',
    kind: 'counter',
  },
  chunks_flushed_total: {
    names: ['logsvc_ingester_chunks_flushed_total'],
    help: 'Chunks written to the object store.',
    kind: 'counter',
  },
  chunks_flushed_bytes_total: {
    names: ['logsvc_ingester_chunks_flushed_bytes_total'],
    help: 'Encoded (compressed) bytes of flushed chunks.',
    kind: 'counter',
  },
  chunks_flushed_uncompressed_bytes_total: {
    names: ['logsvc_ingester_chunks_flushed_uncompressed_bytes_total'],
    help: 'Uncompressed bytes of flushed chunks.',
    kind: 'counter',
  },
  head_blocks_cut_early_total: {
    names: ['logsvc_ingester_head_blocks_cut_early_total'],
    help: 'Head blocks cut into compressed blocks before chunk_block_size, to keep all heads under max_head_block_bytes.',
    kind: 'counter',
  },
  chunks_flushed_entries_total: {
    names: ['logsvc_ingester_chunks_flushed_entries_total'],
    help: 'Entries in flushed chunks.',
    kind: 'counter',
  },
  flush_failures_total: {
    names: ['logsvc_ingester_flush_failures_total', 'loki_ingester_chunks_flush_failures_total'],
    help: 'Failed attempts to write chunks to the object store.',
    kind: 'counter',
  },
  wal_records: {
    names: ['logsvc_ingester_wal_records_logged_total', 'loki_ingester_wal_records_logged_total'],
    help: 'Records appended to the write-ahead log.',
    kind: 'counter',
  },
  wal_bytes: {
    names: ['logsvc_ingester_wal_logged_bytes_total', 'loki_ingester_wal_logged_bytes_total'],
    help: 'Bytes appended to the write-ahead log.',
    kind: 'counter',
  },
  wal_fsyncs: {
    names: ['logsvc_ingester_wal_fsyncs_total'],
    help: 'fdatasync calls of the write-ahead log (one per group commit).',
    kind: 'counter',
  },
  wal_segments_created: {
    names: ['logsvc_ingester_wal_segments_created_total'],
    help: 'Write-ahead log segment files created.',
    kind: 'counter',
  },
  wal_checkpoints_total: {
    names: [
      'logsvc_ingester_checkpoint_creations_total',
      'loki_ingester_checkpoint_creations_total',
    ],
    help: 'Write-ahead log checkpoints written.',
    kind: 'counter',
  },
  wal_checkpoint_failures_total: {
    names: [
      'logsvc_ingester_checkpoint_creations_failed_total',
      'loki_ingester_checkpoint_creations_failed_total',
    ],
    help: 'Write-ahead log checkpoints that failed.',
    kind: 'counter',
  },
  wal_checkpoint_bytes: {
    names: ['logsvc_ingester_checkpoint_size_bytes'],
    help: 'Size of the last write-ahead log checkpoint.',
    kind: 'gauge',
  },
  wal_corruptions_total: {
    names: ['logsvc_ingester_wal_corruptions_total', 'loki_ingester_wal_corruptions_total'],
    help: 'Torn or corrupt write-ahead log records found (and truncated) at replay.',
    kind: 'counter',
  },
  wal_replayed_records_total: {
    names: ['logsvc_ingester_wal_replayed_records_total'],
    help: 'Write-ahead log records replayed at start.',
    kind: 'counter',
  },
  wal_replay_duration_ms: {
    names: [
      'logsvc_ingester_wal_replay_duration_seconds',
      'loki_ingester_wal_replay_duration_seconds',
    ],
    help: 'Time the last write-ahead log replay took.',
    kind: 'gauge',
    scale: 1 / 1000,
  },
};

const BY_REASON: Readonly<Record<ByReasonField, MetricSpec>> = {
  discarded_entries_total: {
    names: ['logsvc_ingester_discarded_entries_total'],
    help: 'Entries the ingester refused, by reason (too_far_behind, out_of_order, stream_limit).',
    kind: 'counter',
  },
  discarded_bytes_total: {
    names: ['logsvc_ingester_discarded_bytes_total'],
    help: 'Bytes of entries the ingester refused, by reason.',
    kind: 'counter',
  },
  chunks_cut_total: {
    names: ['logsvc_ingester_chunks_cut_total'],
    help: 'Chunks closed, by reason (full, idle, max_age, forced).',
    kind: 'counter',
  },
  chunks_flushed_by_reason_total: {
    // Loki's name carries the reason label; logsvc_ingester_chunks_flushed_total has none.
    names: ['loki_ingester_chunks_flushed_total'],
    help: 'Chunks written to the object store, by the reason they were cut.',
    kind: 'counter',
  },
};

/**
 * Exports the ingester's counters on every scrape: the library keeps plain numbers, and each
 * metric's collect() copies the current value. Zero until the ingester has started.
 */
export function registerIngesterMetrics(
  registry: Registry,
  current: () => IngesterCounters | undefined,
  shutdownMarker: () => boolean,
): void {
  // collect() runs once per metric, and metrics() walks every stream: take one snapshot per
  // scrape (cleared on the next turn of the event loop).
  let snapshot: IngesterCounters | null | undefined;
  const counters = (): IngesterCounters | null => {
    if (snapshot === undefined) {
      snapshot = current() ?? null;
      setImmediate(() => (snapshot = undefined));
    }
    return snapshot;
  };
  for (const [field, spec] of Object.entries(NUMERIC) as [NumericField, MetricSpec][]) {
    for (const name of spec.names) {
      const value = () => (counters()?.[field] ?? 0) * (spec.scale ?? 1);
      if (spec.kind === 'gauge') {
        new Gauge({
          name,
          help: spec.help,
          registers: [registry],
          collect() {
            this.set(value());
          },
        });
      } else {
        new Counter({
          name,
          help: spec.help,
          registers: [registry],
          collect() {
            this.reset();
            this.inc(value());
          },
        });
      }
    }
  }
  for (const [field, spec] of Object.entries(BY_REASON) as [ByReasonField, MetricSpec][]) {
    for (const name of spec.names) {
      new Counter({
        name,
        help: spec.help,
        labelNames: ['reason'],
        registers: [registry],
        collect() {
          this.reset();
          for (const [reason, n] of Object.entries(counters()?.[field] ?? {})) {
            this.inc({ reason }, n);
          }
        },
      });
    }
  }
  for (const name of ['logsvc_ingester_shutdown_marker', 'loki_ingester_shutdown_marker']) {
    new Gauge({
      name,
      help: '1 when prepare_shutdown is set: the next SIGTERM flushes and leaves the ring.',
      registers: [registry],
      collect() {
        this.set(shutdownMarker() ? 1 : 0);
      },
    });
  }
}
