import type { Config } from '@logsvc/config';
import { tokenFor } from '@logsvc/ring';
import { ClientPool, GatewayIndexReader, GrpcIndexGatewayClient } from '@logsvc/rpc';
import type { ChunkStore, IndexReader } from '@logsvc/storage';
import type { Provider } from '@nestjs/common';
import type { Component } from '../../targets';
import { COMPONENTS, CONFIG, INDEX_READER } from '../../tokens';
import { CHUNK_STORE } from '../core/chunk-store.provider';
import { sharesRing } from '../../cluster-mode';
import { rpcClientOptions } from '../../rpc-client-options';
import { RingsService } from '../cluster/rings.service';

/** Clients of index gateways by address. */
export const INDEX_GATEWAY_POOL = Symbol('logsvc.indexGatewayPool');

export const indexGatewayPoolProvider: Provider = {
  provide: INDEX_GATEWAY_POOL,
  inject: [CONFIG],
  useFactory: (config: Config) =>
    new ClientPool<GrpcIndexGatewayClient>(
      (addr) =>
        new GrpcIndexGatewayClient(
          addr,
          rpcClientOptions(
            config,
            config.storage_config.tsdb_shipper.index_gateway_client.grpc_client_config,
          ),
        ),
    ),
};

/**
 * INDEX_READER, where queriers read the index: in `index_gateway.mode: ring` (with a shared
 * ring) the tenant's gateways from the index gateway ring; in `simple` mode the gateway at
 * `storage_config.tsdb_shipper.index_gateway_client.server_address` when set; else this
 * process's own ChunkStore (also when it runs the index gateway itself).
 */
export const indexReaderProvider: Provider = {
  provide: INDEX_READER,
  inject: [CONFIG, COMPONENTS, CHUNK_STORE, RingsService, INDEX_GATEWAY_POOL],
  useFactory: (
    config: Config,
    components: readonly Component[],
    store: ChunkStore,
    rings: RingsService,
    pool: ClientPool<GrpcIndexGatewayClient>,
  ): IndexReader => {
    if (components.includes('index-gateway')) return store;
    if (config.index_gateway.mode === 'ring' && sharesRing(config)) {
      return new GatewayIndexReader((tenant) => {
        const ring = rings.watcher('index-gateway')?.ring();
        if (!ring) return [];
        try {
          return ring.get(tokenFor(tenant, ''), 'read').instances.map((i) => i.addr);
        } catch {
          // Fewer gateways than a quorum of the ring's RF: any healthy one can answer a read.
          return ring.healthyInstances('read').map((i) => i.addr);
        }
      }, pool);
    }
    const address = config.storage_config.tsdb_shipper.index_gateway_client.server_address;
    if (address !== '') return new GatewayIndexReader(() => [address], pool);
    return store;
  },
};
