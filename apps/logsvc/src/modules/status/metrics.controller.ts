import { apiPaths } from '@logsvc/api';
import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { HttpMetrics } from '../../http/http-metrics';
import {
  type LocalAnswer,
  type LocalEndpoint,
  type LocalEndpointSource,
  LocalEndpoints,
  getAt,
  sendAnswer,
  textAnswer,
} from '../../http/local-endpoints';

/** `GET /metrics` in the Prometheus text format. */
@LocalEndpoints()
@Controller()
export class MetricsController implements LocalEndpointSource {
  constructor(@Inject(HttpMetrics) private readonly metrics: HttpMetrics) {}

  localEndpoints(): Record<string, LocalEndpoint> {
    return getAt(apiPaths('metrics'), () => this.scrapeAnswer());
  }

  @Get(apiPaths('metrics'))
  async scrape(@Res() reply: FastifyReply) {
    return sendAnswer(reply, await this.scrapeAnswer());
  }

  private async scrapeAnswer(): Promise<LocalAnswer> {
    const { registry } = this.metrics;
    return textAnswer(await registry.metrics(), registry.contentType);
  }
}
