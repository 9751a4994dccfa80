import { hostname } from 'node:os';
import { type Config, Overrides, resolveRingConfig } from '@logsvc/config';
import { ChunkDecoder } from '@logsvc/querier';
import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { HttpMetrics } from '../../http/http-metrics';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import type { StartupFiles } from '../../startup-files';
import type { Component } from '../../targets';
import {
  CHUNK_DECODER,
  COMPONENTS,
  CONFIG,
  DELETE_REQUESTS,
  LOGGER,
  OVERRIDES,
  STARTUP_FILES,
} from '../../tokens';
import { sharesRing } from '../../cluster-mode';
import { CHUNK_STORE, chunkStoreOf, createDeleteRequestsStore } from './chunk-store.provider';
import { RuntimeConfigService } from './runtime-config.service';

/**
 * Names this process's index files: its ingester ring ID in a cluster (several processes on one
 * host share the host name), else the host name.
 */
function uploaderName(config: Config): string {
  return sharesRing(config) ? resolveRingConfig(config, 'ingester').instanceId : hostname();
}

export interface CoreDependencies {
  config: Config;
  logger: Logger;
  registry: ServiceRegistry;
  metrics: HttpMetrics;
  components: readonly Component[];
  startupFiles: StartupFiles;
}

/**
 * What every module may inject: CONFIG, STARTUP_FILES, OVERRIDES, LOGGER, ServiceRegistry, HttpMetrics
 * (whose `.registry` is the prom-client registry for a component's own metrics), CHUNK_STORE
 * (the `ChunkStore` on object storage), CHUNK_DECODER (the main thread's chunk decoder and
 * block cache) and DELETE_REQUESTS (delete request records).
 */
@Global()
@Module({})
export class CoreModule {
  static forRoot(deps: CoreDependencies): DynamicModule {
    const overrides = new Overrides(deps.config.limits_config, {
      file: deps.config.runtime_config.file,
      periodMs: deps.config.runtime_config.period,
      onReloadError: (err) => deps.logger.error({ err }, 'reloading the runtime config failed'),
      onWarning: (w) =>
        deps.logger.warn(
          { key: w.key, reason: w.reason },
          'runtime config key has no effect in logsvc',
        ),
    });
    const chunkStore = chunkStoreOf(deps.config, uploaderName(deps.config));
    const providers = [
      { provide: CONFIG, useValue: deps.config },
      { provide: COMPONENTS, useValue: deps.components },
      { provide: STARTUP_FILES, useValue: deps.startupFiles },
      { provide: LOGGER, useValue: deps.logger },
      { provide: OVERRIDES, useValue: overrides },
      { provide: ServiceRegistry, useValue: deps.registry },
      { provide: HttpMetrics, useValue: deps.metrics },
      { provide: CHUNK_STORE, useValue: chunkStore },
      // The main thread's; each query worker thread sizes its own from the pool's options.
      { provide: CHUNK_DECODER, useValue: new ChunkDecoder(deps.config.querier.block_cache_mb) },
      {
        provide: DELETE_REQUESTS,
        useValue: createDeleteRequestsStore(deps.config, chunkStore),
      },
      RuntimeConfigService,
    ];
    return {
      module: CoreModule,
      providers,
      exports: [
        CONFIG,
        COMPONENTS,
        STARTUP_FILES,
        LOGGER,
        OVERRIDES,
        ServiceRegistry,
        HttpMetrics,
        CHUNK_STORE,
        CHUNK_DECODER,
        DELETE_REQUESTS,
      ],
    };
  }
}
