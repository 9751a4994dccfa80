// Delete requests in the object store: one JSON object per request under its tenant,
// `<tenant>/delete_requests/<request_id>.json`. Writes are whole-object puts (atomic on both
// object stores); a cancel deletes the object or rewrites it without its unprocessed parts.
import { ObjectNotFoundError, type ObjectClient, assertSafeTenant } from '@logsvc/storage';
import type { DeleteRequestRecord } from './delete-request';

const REQUEST_ID = /^[0-9a-f]{8}$/;

export function deleteRequestsPrefix(tenant: string): string {
  return `${tenant}/delete_requests/`;
}

function keyOf(tenant: string, requestId: string): string {
  return `${deleteRequestsPrefix(tenant)}${requestId}.json`;
}

interface CachedRecord {
  readonly size: number;
  readonly modifiedMs: number;
  readonly record: DeleteRequestRecord;
}

/**
 * Reads and writes delete request records. `list` costs one listing per call: records already
 * read are reused while their size and modification time are unchanged, so queriers can ask
 * on every query and still see a new request as soon as its create call answered.
 */
export class DeleteRequestsStore {
  private readonly cache = new Map<string, CachedRecord>();

  constructor(private readonly client: ObjectClient) {}

  /** Every stored request of the tenant, oldest first. */
  async list(tenant: string): Promise<DeleteRequestRecord[]> {
    assertSafeTenant(tenant);
    const prefix = deleteRequestsPrefix(tenant);
    const listing = await this.client.list(prefix);
    const out: DeleteRequestRecord[] = [];
    const seen = new Set<string>();
    for (const o of listing.objects) {
      if (!o.key.endsWith('.json')) continue;
      seen.add(o.key);
      const cached = this.cache.get(o.key);
      const modifiedMs = o.modifiedAt.getTime();
      if (cached && cached.size === o.size && cached.modifiedMs === modifiedMs) {
        out.push(cached.record);
        continue;
      }
      const record = await this.read(o.key);
      if (record === null) continue;
      this.cache.set(o.key, { size: o.size, modifiedMs, record });
      out.push(record);
    }
    for (const key of this.cache.keys())
      if (key.startsWith(prefix) && !seen.has(key)) this.cache.delete(key);
    return out.sort(
      (a, b) => a.createdAtMs - b.createdAtMs || (a.requestId < b.requestId ? -1 : 1),
    );
  }

  /** One request, or null when there is none with that id. */
  async get(tenant: string, requestId: string): Promise<DeleteRequestRecord | null> {
    assertSafeTenant(tenant);
    if (!REQUEST_ID.test(requestId)) return null;
    return this.read(keyOf(tenant, requestId));
  }

  async put(record: DeleteRequestRecord): Promise<void> {
    assertSafeTenant(record.tenant);
    if (!REQUEST_ID.test(record.requestId)) throw new Error(`bad request id ${record.requestId}`);
    await this.client.put(
      keyOf(record.tenant, record.requestId),
      Buffer.from(JSON.stringify(record)),
    );
  }

  async remove(tenant: string, requestId: string): Promise<void> {
    assertSafeTenant(tenant);
    if (!REQUEST_ID.test(requestId)) return;
    await this.client.delete(keyOf(tenant, requestId));
    this.cache.delete(keyOf(tenant, requestId));
  }

  private async read(key: string): Promise<DeleteRequestRecord | null> {
    try {
      return JSON.parse((await this.client.get(key)).toString('utf8')) as DeleteRequestRecord;
    } catch (err) {
      if (err instanceof ObjectNotFoundError) return null;
      throw err;
    }
  }
}
