import { apiPaths } from '@logsvc/api';
import { type Config, type Overrides, drilldownLimits } from '@logsvc/config';
import { DEFAULT_OTLP_INDEX_LABEL_ATTRIBUTES } from '@logsvc/push';
import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { TenantId } from '../../http/tenancy';
import { CONFIG, OVERRIDES } from '../../tokens';
import { goJson } from '@logsvc/query-codec';
import { readBuildInfo } from './build-info';

/**
 * `GET /loki/api/v1/drilldown-limits` (Loki 3.6): the tenant's limits Grafana's Logs Drilldown
 * reads. Like Loki, every target serves it.
 */
@Controller()
export class DrilldownLimitsController {
  private readonly version = readBuildInfo().version;

  constructor(
    @Inject(OVERRIDES) private readonly overrides: Overrides,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @Get(apiPaths('drilldown_limits'))
  limits(@TenantId() tenant: string, @Res({ passthrough: true }) reply: FastifyReply): Buffer {
    const body = drilldownLimits(this.overrides.forTenant(tenant), {
      patternIngesterEnabled: this.config.pattern_ingester.enabled,
      version: this.version,
      otlpIndexLabelAttributes: DEFAULT_OTLP_INDEX_LABEL_ATTRIBUTES,
    });
    void reply.header('content-type', 'application/json');
    // A Buffer, so Fastify sends the content type as set (Go: no charset).
    return Buffer.from(goJson(body) + '\n');
  }
}
