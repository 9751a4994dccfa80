import type { Config, Overrides } from '@logsvc/config';
import type { IngesterClient } from '@logsvc/ingester';
import { type ChunkDecoder, Querier } from '@logsvc/querier';
import { RulesApi, type RuleStore } from '@logsvc/ruler';
import type { ChunkStore, IndexReader } from '@logsvc/storage';
import { Global, Module } from '@nestjs/common';
import { CHUNK_DECODER, CONFIG, INDEX_READER, INGESTER_CLIENT, OVERRIDES } from '../../tokens';
import { CHUNK_STORE } from '../core/chunk-store.provider';
import { querierOptions } from '../querier/querier-options';
import { PrometheusRulesController } from './prometheus-rules.controller';
import { RULER_QUERIER } from './ruler-query';
import { RULE_STORE, createRuleStore } from './rule-store.provider';
import { rulerMetricsProvider } from './ruler-metrics.provider';
import { RulerGrpcHandlers } from './ruler.grpc';
import { RulerService } from './ruler.service';
import { RulesController } from './rules.controller';

/**
 * Loaded when `-target` includes ruler (in `all` and `backend`). Exports `RulesApi`, the rules
 * API over the rule store (the admin UI's rules page reads it).
 */
@Global()
@Module({
  controllers: [RulesController, PrometheusRulesController],
  providers: [
    RulerService,
    RulerGrpcHandlers,
    rulerMetricsProvider,
    { provide: RULE_STORE, useFactory: createRuleStore, inject: [CONFIG] },
    {
      provide: RulesApi,
      useFactory: (store: RuleStore, ruler: RulerService) =>
        new RulesApi(store, (tenant) => ruler.limits(tenant)),
      inject: [RULE_STORE, RulerService],
    },
    {
      provide: RULER_QUERIER,
      useFactory: (
        config: Config,
        store: ChunkStore,
        ingesters: IngesterClient,
        overrides: Overrides,
        index: IndexReader,
        decoder: ChunkDecoder,
      ) =>
        new Querier({
          ...querierOptions(config, store, ingesters, overrides, index),
          decoder,
          // Rule queries are small instant queries: no worker threads of their own.
          scanWorkers: -1,
        }),
      inject: [CONFIG, CHUNK_STORE, INGESTER_CLIENT, OVERRIDES, INDEX_READER, CHUNK_DECODER],
    },
  ],
  exports: [RulesApi],
})
export class RulerModule {}
