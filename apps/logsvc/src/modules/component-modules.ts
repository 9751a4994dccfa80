import type { Type } from '@nestjs/common';
import type { Component } from '../targets';
import { CompactorModule } from './compactor/compactor.module';
import { DistributorModule } from './distributor/distributor.module';
import { IndexGatewayModule } from './index-gateway/index-gateway.module';
import { IngesterModule } from './ingester/ingester.module';
import { PatternIngesterModule } from './pattern-ingester/pattern-ingester.module';
import { QuerierModule } from './querier/querier.module';
import { QueryFrontendModule } from './query-frontend/query-frontend.module';
import { QuerySchedulerModule } from './query-scheduler/query-scheduler.module';
import { RulerModule } from './ruler/ruler.module';
import { UiModule } from './ui/ui.module';

/** The Nest module of each available component; `-target` picks which of them the app imports. */
export const COMPONENT_MODULES: Readonly<Record<Component, Type<unknown>>> = {
  distributor: DistributorModule,
  ingester: IngesterModule,
  'query-scheduler': QuerySchedulerModule,
  'query-frontend': QueryFrontendModule,
  querier: QuerierModule,
  'index-gateway': IndexGatewayModule,
  'pattern-ingester': PatternIngesterModule,
  compactor: CompactorModule,
  ruler: RulerModule,
  ui: UiModule,
};
