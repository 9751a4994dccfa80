// The querier's view of delete requests: every stored request of the tenant (processed ones
// too, so a line a crash left behind still stays hidden), unless deletion is disabled for it.
import type { Labels } from '@logsvc/api';
import type { DeleteRequestRecord } from './delete-request';
import type { DeletionMode } from './delete-requests-api';
import type { DeleteRequestsStore } from './delete-requests-store';
import { type LineDeletedFn, LineDeleter } from './line-deleter';

/** For one tenant and query range: which lines of each stream are deleted. */
export interface TenantDeletions {
  forStream(labels: Labels): LineDeletedFn | null;
}

export class QueryDeletions {
  constructor(
    private readonly store: DeleteRequestsStore,
    private readonly deletionMode: (tenant: string) => DeletionMode,
  ) {}

  /** The requests whose lines the tenant's queries must not see (none when disabled). */
  async records(tenant: string): Promise<readonly DeleteRequestRecord[]> {
    if (this.deletionMode(tenant) === 'disabled') return [];
    return this.store.list(tenant);
  }

  async forTenant(
    tenant: string,
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<TenantDeletions | null> {
    return tenantDeletions(await this.records(tenant), fromNs, throughNs);
  }
}

/**
 * The same view over records read before, as plain data: how a query worker thread hides the
 * lines the main thread's `QueryDeletions.records` listed for the query's tenants.
 */
export class RecordedDeletions {
  constructor(private readonly byTenant: ReadonlyMap<string, readonly DeleteRequestRecord[]>) {}

  async forTenant(
    tenant: string,
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<TenantDeletions | null> {
    return tenantDeletions(this.byTenant.get(tenant) ?? [], fromNs, throughNs);
  }
}

function tenantDeletions(
  records: readonly DeleteRequestRecord[],
  fromNs: bigint,
  throughNs: bigint,
): TenantDeletions | null {
  if (records.length === 0) return null;
  const deleter = new LineDeleter(records);
  if (deleter.empty) return null;
  // The query range excludes throughNs; delete parts include both ends.
  return { forStream: (labels) => deleter.forStream(labels, fromNs, throughNs) };
}
