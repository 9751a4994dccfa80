import { apiPaths } from '@logsvc/api';
import { type AggregateBy, Querier, type VolumeSample, volumeMetric } from '@logsvc/querier';
import { newQueryStats } from '@logsvc/logql';
import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GetOrPost } from '../../http/get-or-post';
import { TenantIds } from '../../http/tenancy';
import {
  goJson,
  JSON_CONTENT_TYPE,
  matrixItem,
  vectorItem,
  statsJson,
  HOUR_NS,
  ParamError,
  type ParamReader,
  nowNs,
  parseBounds,
  parseInstantQuery,
  parseRangeQuery,
  parseSelector,
} from '@logsvc/query-codec';
import { requestReader } from './request-reader';

/**
 * Loki's `volumeLimit`: a bad `limit` is refused as for queries, but 0 means the default (100)
 * rather than an error.
 */
function volumeParams(read: ParamReader): ParamReader {
  const zero = /^[+-]?0+$/.test(read('limit') ?? '');
  return (name) => (name === 'limit' && zero ? undefined : read(name));
}

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
    // Loki reads these as a range query: its parameters are checked alike (limit, step...).
    const { query, startNs, endNs } = parseRangeQuery(requestReader(request), nowNs());
    const matchers = parseSelector(query);
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
    const read = volumeParams(requestReader(request));
    const now = nowNs();
    // As Loki: volume_range is a range query; volume an instant query with start and end.
    let startNs: bigint;
    let endNs: bigint;
    let stepNs = 0n;
    let limit: number;
    if (range) {
      ({ startNs, endNs, stepNs, limit } = parseRangeQuery(read, now));
    } else {
      limit = parseInstantQuery(read, now).limit;
      ({ startNs, endNs } = parseBounds(read, now, HOUR_NS));
      if (endNs < startNs) {
        throw new ParamError('end timestamp must not be before or equal to start time');
      }
    }
    const aggregateBy = (read('aggregateBy') || 'series') as AggregateBy;
    if (aggregateBy !== 'series' && aggregateBy !== 'labels') {
      throw new ParamError('invalid aggregation option');
    }
    const targetLabels = (read('targetLabels') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    const matchers = parseSelector(read('query') ?? '');
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
