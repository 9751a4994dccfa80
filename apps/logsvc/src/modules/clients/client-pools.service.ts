import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { ClientPool } from '@logsvc/rpc';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { INGESTER_POOL } from './ingester-client.provider';
import { INDEX_GATEWAY_POOL } from './index-reader.provider';
import { PATTERN_POOL } from './pattern-clients.provider';

/**
 * The gRPC connections to other processes (ingesters, index gateways, pattern ingesters), as
 * the `client-pools` service: it stops after every component that calls through them, and
 * closes them.
 */
@Injectable()
export class ClientPoolsService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'client-pools';

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(INGESTER_POOL) private readonly ingesters: ClientPool<{ close(): void }>,
    @Inject(INDEX_GATEWAY_POOL) private readonly gateways: ClientPool<{ close(): void }>,
    @Inject(PATTERN_POOL) private readonly patterns: ClientPool<{ close(): void }>,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async stopping(): Promise<void> {
    this.ingesters.closeAll();
    this.gateways.closeAll();
    this.patterns.closeAll();
  }
}
