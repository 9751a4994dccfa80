import { Module } from '@nestjs/common';
import { DrilldownLimitsController } from './drilldown-limits.controller';
import { FormatQueryController } from './format-query.controller';
import { LogLevelController } from './log-level.controller';
import { MetricsController } from './metrics.controller';
import { StatusController } from './status.controller';

/**
 * Status and process endpoints, loaded for every target: `/ready`, `/services`, `/config`,
 * `/log_level`, `/metrics`, buildinfo, `drilldown-limits` (as Loki 3.6), and `format_query`,
 * which the spec also exposes on every component.
 */
@Module({
  controllers: [
    StatusController,
    LogLevelController,
    MetricsController,
    FormatQueryController,
    DrilldownLimitsController,
  ],
})
export class StatusModule {}
