import { Module } from '@nestjs/common';
import { LogLevelController } from './log-level.controller';
import { MetricsController } from './metrics.controller';
import { StatusController } from './status.controller';

/** Status and process endpoints, loaded for every target. */
@Module({ controllers: [StatusController, LogLevelController, MetricsController] })
export class StatusModule {}
