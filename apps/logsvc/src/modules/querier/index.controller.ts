import { apiPaths } from '@logsvc/api';
import { type AggregateBy, Querier, type VolumeSample, volumeMetric } from '@logsvc/querier';
import { newQueryStats } from '@logsvc/logql';
import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GetOrPost } from '../../http/get-or-post';
import { TenantIds } from '../../http/tenancy';
import { goJson, JSON_CONTENT_TYPE } from './encode/json';
import { matrixItem, vectorItem } from './encode/metric-json';
import { statsJson } from './encode/stats-json';
import {
  HOUR_NS,
  ParamError,
  checkResolution,
  defaultStepNs,
  nowNs,
  parseBounds,
  parseLimit,
  parseSecondsOrDuration,
} from './params/query-params';
import { parseSelector } from './params/selectors';
import { requestReader } from './request-reader';

/** `index/stats`, `index/volume` and `index/volume_range`, GET or form POST. */
@Controller()
export class IndexController {
  constructor(@Inject(Querier) private readonly querier: Querier) {}

  @GetOrPost(apiPaths('index_stats'))
  statsRoute(
    @TenantIds() t: string[],
    @Req() q: FastifyRequest,
    @Res({ passthrough: true }) r: FastifyReply,
  ) {
    return this.stats(t, q, r);
  }

  @GetOrPost(apiPaths('index_volume'))
  volumeRoute(
    @TenantIds() t: string[],
    @Req() q: FastifyRequest,
    @Res({ passthrough: true }) r: FastifyReply,
  ) {
    return this.volume(t, q, r, false);
  }

  @GetOrPost(apiPaths('index_volume_range'))
  volumeRangeRoute(
    @TenantIds() t: string[],
    @Req() q: FastifyRequest,
    @Res({ passthrough: true }) r: FastifyReply,
  ) {
    return this.volume(t, q, r, true);
  }

  private async stats(tenants: string[], request: FastifyRequest, reply: FastifyReply) {
    const read = requestReader(request);
    const { startNs, endNs } = parseBounds(read, nowNs(), HOUR_NS);
    const matchers = parseSelector(read('query') ?? '');
    const s = await this.querier.indexStats(tenants, matchers, startNs, endNs);
    void reply.header('content-type', JSON_CONTENT_TYPE);
    return JSON.stringify({
      streams: s.streams,
      chunks: s.chunks,
      bytes: s.bytes,
      entries: s.entries,
    });
  }

  private async volume(
    tenants: string[],
    request: FastifyRequest,
    reply: FastifyReply,
    range: boolean,
  ) {
    // Before reading parameters: without volume_enabled the endpoint does not exist.
    this.querier.checkVolumesEnabled(tenants);
    const read = requestReader(request);
    const { startNs, endNs } = parseBounds(read, nowNs(), HOUR_NS);
    const matchers = parseSelector(read('query') ?? '');
    const limit = parseLimit(read);
    const aggregateBy = (read('aggregateBy') || 'series') as AggregateBy;
    if (aggregateBy !== 'series' && aggregateBy !== 'labels') {
      throw new ParamError(
        `invalid aggregateBy parameter: ${JSON.stringify(aggregateBy)}: expected series or labels`,
      );
    }
    const targetLabels = (read('targetLabels') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    const stepText = read('step');
    const stepNs = !range
      ? 0n
      : stepText
        ? parseSecondsOrDuration(stepText)
        : defaultStepNs(startNs, endNs);
    if (range && stepNs <= 0n) {
      throw new ParamError(
        'zero or negative query resolution step widths are not accepted. Try a positive integer',
      );
    }
    if (range) checkResolution(startNs, endNs, stepNs);
    const series = await this.querier.volumes({
      tenants,
      matchers,
      targetLabels,
      aggregateBy,
      startNs,
      endNs,
      stepNs,
      limit,
    });
    return this.volumeReply(reply, series, aggregateBy);
  }

  /** Loki's `ToPrometheusResponse`: a vector unless some series has several samples. */
  private volumeReply(
    reply: FastifyReply,
    series: Map<string, readonly VolumeSample[]>,
    by: AggregateBy,
  ): string {
    const rows = [...series].sort((a, b) => {
      const va = a[1][0].value;
      const vb = b[1][0].value;
      if (va !== vb) return vb - va;
      return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
    });
    const matrix = rows.some(([, s]) => s.length > 1);
    const result = rows.map(([name, samples]) =>
      matrix
        ? matrixItem(volumeMetric(name, by), samples)
        : vectorItem(volumeMetric(name, by), samples[0]),
    );
    void reply.header('content-type', JSON_CONTENT_TYPE);
    const stats = goJson(statsJson(newQueryStats()));
    return `{"status":"success","data":{"resultType":"${matrix ? 'matrix' : 'vector'}","result":[${result.join(',')}],"stats":${stats}}}`;
  }
}
