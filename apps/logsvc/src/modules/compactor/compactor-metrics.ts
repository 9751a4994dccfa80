import type { CompactorEvents, TablePassResult } from '@logsvc/compactor';
import { Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { HttpMetrics } from '../../http/http-metrics';

/** The compactor's metrics under Loki's names (pkg/compactor, deletion/, retention/). */
@Injectable()
export class CompactorMetrics implements CompactorEvents {
  readonly running: Gauge;
  readonly compactOperations: Counter<'status'>;
  readonly compactDuration: Gauge;
  readonly compactLastSuccess: Gauge;
  readonly retentionOperations: Counter<'status'>;
  readonly retentionDuration: Gauge;
  readonly retentionLastSuccess: Gauge;
  readonly deleteRequestsReceived: Counter<'user'>;
  readonly pendingDeleteRequests: Gauge;
  readonly oldestPendingDeleteRequestAge: Gauge;
  private readonly deleteRequestsProcessed: Counter<'user'>;
  private readonly chunksSelected: Counter<'user'>;
  private readonly deletedLines: Counter<'user'>;
  private readonly markersCreated: Counter<'table'>;
  private readonly chunksDeleted: Counter<'tenant' | 'reason'>;
  private readonly sweepDuration: Histogram<'status'>;
  private readonly smallChunksMerged: Counter<'tenant'>;
  private readonly mergedChunksWritten: Counter<'tenant'>;

  constructor(@Inject(HttpMetrics) metrics: HttpMetrics) {
    const registers = [metrics.registry];
    this.running = new Gauge({
      name: 'loki_boltdb_shipper_compactor_running',
      help: 'Value will be 1 if compactor is currently running on this instance',
      registers,
    });
    this.compactOperations = new Counter({
      name: 'loki_boltdb_shipper_compact_tables_operation_total',
      help: 'Total number of tables compaction done by status',
      labelNames: ['status'],
      registers,
    });
    this.compactDuration = new Gauge({
      name: 'loki_boltdb_shipper_compact_tables_operation_duration_seconds',
      help: 'Time (in seconds) spent in compacting all the tables',
      registers,
    });
    this.compactLastSuccess = new Gauge({
      name: 'loki_boltdb_shipper_compact_tables_operation_last_successful_run_timestamp_seconds',
      help: 'Unix timestamp of the last successful compaction run',
      registers,
    });
    this.retentionOperations = new Counter({
      name: 'loki_compactor_apply_retention_operation_total',
      help: 'Total number of attempts done to apply retention with status',
      labelNames: ['status'],
      registers,
    });
    this.retentionDuration = new Gauge({
      name: 'loki_compactor_apply_retention_operation_duration_seconds',
      help: 'Time (in seconds) spent in applying retention',
      registers,
    });
    this.retentionLastSuccess = new Gauge({
      name: 'loki_compactor_apply_retention_last_successful_run_timestamp_seconds',
      help: 'Unix timestamp of the last successful retention run',
      registers,
    });
    this.deleteRequestsReceived = new Counter({
      name: 'loki_compactor_delete_requests_received_total',
      help: 'Number of delete requests received per user',
      labelNames: ['user'],
      registers,
    });
    this.pendingDeleteRequests = new Gauge({
      name: 'loki_compactor_pending_delete_requests_count',
      help: 'Count of delete requests which are over their cancellation period and have not finished processing yet',
      registers,
    });
    this.oldestPendingDeleteRequestAge = new Gauge({
      name: 'loki_compactor_oldest_pending_delete_request_age_seconds',
      help: 'Age of oldest pending delete request in seconds since they are over their cancellation period',
      registers,
    });
    this.deleteRequestsProcessed = new Counter({
      name: 'loki_compactor_delete_requests_processed_total',
      help: 'Number of delete requests processed per user',
      labelNames: ['user'],
      registers,
    });
    this.chunksSelected = new Counter({
      name: 'loki_compactor_delete_requests_chunks_selected_total',
      help: 'Number of chunks selected while building delete plans per user',
      labelNames: ['user'],
      registers,
    });
    this.deletedLines = new Counter({
      name: 'loki_compactor_deleted_lines',
      help: 'Number of deleted lines per user',
      labelNames: ['user'],
      registers,
    });
    this.markersCreated = new Counter({
      name: 'loki_boltdb_shipper_retention_marker_count_total',
      help: 'Total count of markers created per table.',
      labelNames: ['table'],
      registers,
    });
    this.chunksDeleted = new Counter({
      name: 'logsvc_compactor_chunks_removed_total',
      help: 'Chunks removed from the index, by tenant and reason (retention, delete).',
      labelNames: ['tenant', 'reason'],
      registers,
    });
    this.sweepDuration = new Histogram({
      name: 'loki_boltdb_shipper_retention_sweeper_chunk_deleted_duration_seconds',
      help: 'Time (in seconds) spent in deleting chunk',
      labelNames: ['status'],
      buckets: [0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 12.8],
      registers,
    });
    this.smallChunksMerged = new Counter({
      name: 'logsvc_compactor_small_chunks_merged_total',
      help: 'Small chunks the compactor merged into larger ones (compact_small_chunks), by tenant.',
      labelNames: ['tenant'],
      registers,
    });
    this.mergedChunksWritten = new Counter({
      name: 'logsvc_compactor_merged_chunks_written_total',
      help: 'Chunks the compactor wrote in place of small ones (compact_small_chunks), by tenant.',
      labelNames: ['tenant'],
      registers,
    });
  }

  tableDone(tenant: string, table: string, r: TablePassResult): void {
    if (r.removed.length > 0) this.markersCreated.inc({ table }, r.removed.length);
    if (r.chunksExpired > 0)
      this.chunksDeleted.inc({ tenant, reason: 'retention' }, r.chunksExpired);
    const deleted = r.chunksDeleted + r.chunksRewritten;
    if (deleted > 0) this.chunksDeleted.inc({ tenant, reason: 'delete' }, deleted);
    if (r.chunksProcessed > 0) this.chunksSelected.inc({ user: tenant }, r.chunksProcessed);
    if (r.linesDeleted > 0) this.deletedLines.inc({ user: tenant }, r.linesDeleted);
    if (r.smallChunksMerged > 0) this.smallChunksMerged.inc({ tenant }, r.smallChunksMerged);
    if (r.mergedChunksWritten > 0) this.mergedChunksWritten.inc({ tenant }, r.mergedChunksWritten);
  }

  requestProcessed(tenant: string): void {
    this.deleteRequestsProcessed.inc({ user: tenant });
  }

  chunksSwept(count: number, seconds: number): void {
    for (let i = 0; i < count; i++)
      this.sweepDuration.observe({ status: 'success' }, seconds / count);
  }
}
