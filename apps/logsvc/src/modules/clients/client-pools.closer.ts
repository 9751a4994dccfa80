import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { ClientPool } from '@logsvc/rpc';
import { INGESTER_POOL } from './ingester-client.provider';
import { INDEX_GATEWAY_POOL } from './index-reader.provider';
import { PATTERN_POOL } from './pattern-clients.provider';

/** Closes the gRPC connections to other processes when this one shuts down. */
@Injectable()
export class ClientPoolsCloser implements OnApplicationShutdown {
  constructor(
    @Inject(INGESTER_POOL) private readonly ingesters: ClientPool<{ close(): void }>,
    @Inject(INDEX_GATEWAY_POOL) private readonly gateways: ClientPool<{ close(): void }>,
    @Inject(PATTERN_POOL) private readonly patterns: ClientPool<{ close(): void }>,
  ) {}

  onApplicationShutdown(): void {
    this.ingesters.closeAll();
    this.gateways.closeAll();
    this.patterns.closeAll();
  }
}
