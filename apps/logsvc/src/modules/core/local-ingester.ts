import type { Ingester } from '@logsvc/ingester';

/**
 * The ingester running in this process, if any. The ingester module sets it once its
 * `Ingester` has started; the querier reads recent data through it in single-binary mode
 * (in a cluster, queriers reach ingesters over gRPC instead).
 */
export class LocalIngester {
  private current: Ingester | undefined;

  get ingester(): Ingester | undefined {
    return this.current;
  }

  set(ingester: Ingester | undefined): void {
    this.current = ingester;
  }
}
