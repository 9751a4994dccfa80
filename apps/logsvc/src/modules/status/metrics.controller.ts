import { apiPaths } from '@logsvc/api';
import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { HttpMetrics } from '../../http/http-metrics';

/** `GET /metrics` in the Prometheus text format. */
@Controller()
export class MetricsController {
  constructor(@Inject(HttpMetrics) private readonly metrics: HttpMetrics) {}

  @Get(apiPaths('metrics'))
  async scrape(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    void reply.header('content-type', this.metrics.registry.contentType);
    return this.metrics.registry.metrics();
  }
}
