// Query-time filtering of deleted lines (Loki's querier deletion filter): until the compactor
// has rewritten the chunks, lines that delete requests of the tenant remove are dropped from
// every stream a source returns, so log and metric queries never see them.
import type { Labels } from '@logsvc/api';
import type { DeleteRequestRecord } from '@logsvc/compactor';
import type { EntryCursor, LogSource, SelectParams, SourceStream } from '@logsvc/logql';
import { ForwardingCursor } from './forwarding-cursor';

/** For one stream: whether an entry is deleted. */
export type DeletedLineFn = (timestampNs: bigint, line: Buffer, metadata: Labels) => boolean;

/** The delete requests of a tenant, as a query's sources drop their lines. */
export interface LineDeletionFilter {
  /**
   * A per-stream test for the tenant over [fromNs, throughNs), or null when the tenant has no
   * request (or deletion is disabled for it).
   */
  forTenant(
    tenant: string,
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<{ forStream(labels: Labels): DeletedLineFn | null } | null>;
}

/** The delete requests of a tenant, as the querier needs them. */
export interface LineDeletions extends LineDeletionFilter {
  /**
   * The tenant's delete requests `forTenant` honours, as plain records (none when deletion is
   * disabled for it): what a query worker thread gets to hide the same lines.
   */
  records(tenant: string): Promise<readonly DeleteRequestRecord[]>;
}

/** Skips the entries `deleted` removes; everything else is the wrapped cursor's. */
class DeletionFilterCursor extends ForwardingCursor {
  readonly wait?: () => Promise<void> | null;
  readonly startNs?: bigint;

  constructor(
    inner: EntryCursor,
    private readonly deleted: DeletedLineFn,
  ) {
    super(inner);
    if (inner.wait) this.wait = () => inner.wait!();
    if (inner.startNs !== undefined) this.startNs = inner.startNs;
  }

  next(): boolean {
    const inner = this.inner;
    while (inner.next()) {
      if (!this.deleted(inner.timestampNs, inner.line, inner.structuredMetadata)) return true;
    }
    return false;
  }
}

export class DeletionFilteringSource implements LogSource {
  constructor(
    private readonly inner: LogSource,
    private readonly deletions: LineDeletionFilter,
  ) {}

  async select(params: SelectParams): Promise<SourceStream[]> {
    const [streams, tenant] = await Promise.all([
      this.inner.select(params),
      this.deletions.forTenant(params.tenant, params.fromNs, params.throughNs),
    ]);
    if (tenant === null) return streams;
    return streams.map((s) => {
      const deleted = tenant.forStream(s.labels);
      return deleted === null ? s : { ...s, entries: new DeletionFilterCursor(s.entries, deleted) };
    });
  }
}
