// The querier's view of delete requests: every stored request of the tenant (processed ones
// too, so a line a crash left behind still stays hidden), unless deletion is disabled for it.
import type { Labels } from '@logsvc/api';
import type { DeletionMode } from './delete-requests-api';
import type { DeleteRequestsStore } from './delete-requests-store';
import { type LineDeletedFn, LineDeleter } from './line-deleter';

export class QueryDeletions {
  constructor(
    private readonly store: DeleteRequestsStore,
    private readonly deletionMode: (tenant: string) => DeletionMode,
  ) {}

  async forTenant(
    tenant: string,
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<{ forStream(labels: Labels): LineDeletedFn | null } | null> {
    if (this.deletionMode(tenant) === 'disabled') return null;
    const records = await this.store.list(tenant);
    if (records.length === 0) return null;
    const deleter = new LineDeleter(records);
    if (deleter.empty) return null;
    // The query range excludes throughNs; delete parts include both ends.
    return { forStream: (labels) => deleter.forStream(labels, fromNs, throughNs) };
  }
}
