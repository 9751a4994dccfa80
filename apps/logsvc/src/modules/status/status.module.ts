import { Module } from '@nestjs/common';
import { FormatQueryController } from './format-query.controller';
import { LogLevelController } from './log-level.controller';
import { MetricsController } from './metrics.controller';
import { StatusController } from './status.controller';

/**
 * Status and process endpoints, loaded for every target: `/ready`, `/services`, `/config`,
 * `/log_level`, `/metrics`, buildinfo, and `format_query`, which the spec also exposes on every
 * component.
 */
@Module({
  controllers: [StatusController, LogLevelController, MetricsController, FormatQueryController],
})
export class StatusModule {}
