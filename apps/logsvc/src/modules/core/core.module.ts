import { hostname } from 'node:os';
import { type Config, Overrides } from '@logsvc/config';
import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { HttpMetrics } from '../../http/http-metrics';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { CONFIG, LOGGER, OVERRIDES } from '../../tokens';
import { CHUNK_STORE, createChunkStore } from './chunk-store.provider';
import { LocalIngesterClient } from '@logsvc/ingester';
import { RuntimeConfigService } from './runtime-config.service';

export interface CoreDependencies {
  config: Config;
  logger: Logger;
  registry: ServiceRegistry;
  metrics: HttpMetrics;
}

/**
 * What every module may inject: CONFIG, OVERRIDES, LOGGER, ServiceRegistry, HttpMetrics
 * (whose `.registry` is the prom-client registry for a component's own metrics), CHUNK_STORE
 * (the `ChunkStore` on object storage) and LocalIngesterClient (this process's ingester, if any).
 */
@Global()
@Module({})
export class CoreModule {
  static forRoot(deps: CoreDependencies): DynamicModule {
    const overrides = new Overrides(deps.config.limits_config, {
      file: deps.config.runtime_config.file,
      periodMs: deps.config.runtime_config.period,
      onReloadError: (err) => deps.logger.error({ err }, 'reloading the runtime config failed'),
    });
    const providers = [
      { provide: CONFIG, useValue: deps.config },
      { provide: LOGGER, useValue: deps.logger },
      { provide: OVERRIDES, useValue: overrides },
      { provide: ServiceRegistry, useValue: deps.registry },
      { provide: HttpMetrics, useValue: deps.metrics },
      { provide: CHUNK_STORE, useValue: createChunkStore(deps.config, hostname()) },
      { provide: LocalIngesterClient, useValue: new LocalIngesterClient() },
      RuntimeConfigService,
    ];
    return {
      module: CoreModule,
      providers,
      exports: [
        CONFIG,
        LOGGER,
        OVERRIDES,
        ServiceRegistry,
        HttpMetrics,
        CHUNK_STORE,
        LocalIngesterClient,
      ],
    };
  }
}
