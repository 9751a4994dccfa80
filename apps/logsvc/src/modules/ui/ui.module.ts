import { Module } from '@nestjs/common';
import { InstancesController } from './instances.controller';
import { OverviewGateway } from './overview.gateway';
import { OverviewService } from './overview.service';
import { UiStaticController } from './ui-static.controller';

/**
 * The `ui` component (part of `all` and `backend`): the admin UI under `/ui/`, its live
 * cluster overview over a WebSocket, and the per-instance proxy it acts through.
 */
@Module({
  controllers: [InstancesController, UiStaticController],
  providers: [OverviewService, OverviewGateway],
})
export class UiModule {}
