import { LogsvcError } from '@logsvc/errors';
import type { IndexReader } from '@logsvc/storage';
import type { ClientPool } from './client-pool';
import type { GrpcIndexGatewayClient } from './grpc-index-gateway-client';

/** Index gateways to ask for a tenant, in order of preference. */
export type GatewayAddresses = (tenant: string) => readonly string[];

/**
 * Index reads through index gateways: each call goes to the tenant's first gateway and, when it
 * is unreachable, to the next (Loki's querier in `simple` mode has one address; in `ring` mode
 * the tenant's gateways from the ring). Errors that are the request's own (a bad matcher) are
 * returned at once; only `unavailable` moves on.
 */
export class GatewayIndexReader implements IndexReader {
  constructor(
    private readonly addresses: GatewayAddresses,
    private readonly pool: ClientPool<GrpcIndexGatewayClient>,
  ) {}

  getChunkRefs(...args: Parameters<IndexReader['getChunkRefs']>) {
    return this.call(args[0], (c) => c.getChunkRefs(...args));
  }

  labelNames(...args: Parameters<IndexReader['labelNames']>) {
    return this.call(args[0], (c) => c.labelNames(...args));
  }

  labelValues(...args: Parameters<IndexReader['labelValues']>) {
    return this.call(args[0], (c) => c.labelValues(...args));
  }

  series(...args: Parameters<IndexReader['series']>) {
    return this.call(args[0], (c) => c.series(...args));
  }

  stats(...args: Parameters<IndexReader['stats']>) {
    return this.call(args[0], (c) => c.stats(...args));
  }

  volume(...args: Parameters<IndexReader['volume']>) {
    return this.call(args[0], (c) => c.volume(...args));
  }

  private async call<T>(tenant: string, read: (client: IndexReader) => Promise<T>): Promise<T> {
    const addresses = this.addresses(tenant);
    if (addresses.length === 0)
      throw new LogsvcError('unavailable', 'no index gateway is available to answer the query');
    let last: unknown;
    for (const addr of addresses) {
      try {
        return await read(this.pool.get(addr));
      } catch (err) {
        if (!(err instanceof LogsvcError) || err.kind !== 'unavailable') throw err;
        last = err;
      }
    }
    throw last;
  }
}
