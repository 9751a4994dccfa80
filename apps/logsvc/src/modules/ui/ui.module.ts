import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { InstancesController } from './instances.controller';
import { LogServiceController } from './logservice.controller';
import { OverviewGateway } from './overview.gateway';
import { OverviewService } from './overview.service';
import { UiStaticController } from './ui-static.controller';
import { TailTicketController } from './tail-ticket.controller';
import { TailTickets } from './tail-tickets';
import { UiFeaturesController } from './ui-features.controller';
import { UiRulesController } from './ui-rules.controller';
import { UiTailBridge } from './ui-tail-bridge';

/**
 * The `ui` component (part of `all` and `backend`): the admin UI under `/ui/`, its live
 * cluster overview over a WebSocket, the per-instance proxy it acts through, the live tail
 * for browsers, and in Kubernetes the LogService a process was rendered from.
 */
@Module({
  imports: [DiscoveryModule],
  controllers: [
    InstancesController,
    LogServiceController,
    TailTicketController,
    UiFeaturesController,
    UiRulesController,
    UiStaticController,
  ],
  providers: [
    OverviewService,
    OverviewGateway,
    UiTailBridge,
    { provide: TailTickets, useFactory: () => new TailTickets() },
  ],
})
export class UiModule {}
