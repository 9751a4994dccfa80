import type { Config } from '@logsvc/config';
import { RingIngesterClient } from '@logsvc/distributor';
import { type IngesterClient, LocalIngesterClient } from '@logsvc/ingester';
import { RingError } from '@logsvc/ring';
import { ClientPool, GrpcIngesterClient } from '@logsvc/rpc';
import type { Provider } from '@nestjs/common';
import type { Logger } from 'pino';
import { CONFIG, INGESTER_CLIENT, LOGGER } from '../../tokens';
import { sharesRing } from '../../cluster-mode';
import { rpcClientOptions } from '../../rpc-client-options';
import { RingsService } from '../cluster/rings.service';

/** Clients of remote ingesters by address, closed when the process stops. */
export const INGESTER_POOL = Symbol('logsvc.ingesterPool');

export const ingesterPoolProvider: Provider = {
  provide: INGESTER_POOL,
  inject: [CONFIG],
  useFactory: (config: Config) =>
    new ClientPool<GrpcIngesterClient>(
      (addr) =>
        new GrpcIngesterClient(
          addr,
          rpcClientOptions(config, config.ingester_client.grpc_client_config),
        ),
    ),
};

/**
 * INGESTER_CLIENT: with a shared ring, a RingIngesterClient that replicates pushes to the
 * stream's RF ingesters and asks every healthy ingester on reads (this process's own ingester
 * directly, the others over gRPC); else the in-process ingester.
 */
export const ingesterClientProvider: Provider = {
  provide: INGESTER_CLIENT,
  inject: [
    CONFIG,
    { token: LocalIngesterClient, optional: true },
    RingsService,
    INGESTER_POOL,
    LOGGER,
  ],
  useFactory: (
    config: Config,
    own: LocalIngesterClient | undefined,
    rings: RingsService,
    pool: ClientPool<GrpcIngesterClient>,
    logger: Logger,
  ): IngesterClient => {
    // No ingester in this process: pushes are refused as `unavailable`, reads find nothing.
    const local = own ?? new LocalIngesterClient();
    if (!sharesRing(config)) return local;
    const ownId = rings.settings('ingester').instanceId;
    return new RingIngesterClient({
      ring: () => {
        const watcher = rings.watcher('ingester');
        if (!watcher) throw new RingError('the ingester ring is not watched by this process');
        return watcher.ring();
      },
      clientFor: (instance) =>
        instance.id === ownId && local.ingester ? local : pool.get(instance.addr),
      logger: logger.child({ component: 'ingester-ring-client' }),
    });
  },
};
