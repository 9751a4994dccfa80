import { apiPaths } from '@logsvc/api';
import type { Overrides } from '@logsvc/config';
import { newQueryStats } from '@logsvc/logql';
import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GetOrPost } from '../../http/get-or-post';
import { PlainHttpError } from '../../http/plain-error';
import { TenantIds } from '../../http/tenancy';
import { OVERRIDES } from '../../tokens';
import { goJson, JSON_CONTENT_TYPE } from './encode/json';
import { matrixItem, type Sample, vectorItem } from './encode/metric-json';
import { statsJson } from './encode/stats-json';
import { answering } from './http-errors';
import {
  HOUR_NS,
  ParamError,
  defaultStepNs,
  nowNs,
  parseBounds,
  parseLimit,
  parseSecondsOrDuration,
} from './params/query-params';
import { parseSelector } from './params/selectors';
import { MetadataQuerier } from './read/metadata-querier';
import {
  type AggregateBy,
  accumulateVolumes,
  planVolume,
  topVolumes,
  volumeBuckets,
  volumeMetric,
} from './read/volume';
import { requestReader } from './request-reader';

/** `index/stats`, `index/volume` and `index/volume_range`, GET or form POST. */
@Controller()
export class IndexController {
  constructor(
    @Inject(MetadataQuerier) private readonly querier: MetadataQuerier,
    @Inject(OVERRIDES) private readonly overrides: Overrides,
  ) {}

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

  private stats(tenants: string[], request: FastifyRequest, reply: FastifyReply) {
    return answering(async () => {
      const read = requestReader(request);
      const { startNs, endNs } = parseBounds(read, nowNs(), HOUR_NS);
      const matchers = parseSelector(read('query') ?? '');
      const s = await this.querier.stats(tenants, matchers, startNs, endNs);
      void reply.header('content-type', JSON_CONTENT_TYPE);
      return JSON.stringify({
        streams: s.streams,
        chunks: s.chunks,
        bytes: s.bytes,
        entries: s.entries,
      });
    });
  }

  private volume(tenants: string[], request: FastifyRequest, reply: FastifyReply, range: boolean) {
    // Like Loki, a tenant without volume_enabled does not have these endpoints at all.
    if (tenants.some((t) => !this.overrides.forTenant(t).volume_enabled)) {
      throw new PlainHttpError(404, 'not found');
    }
    return answering(async () => {
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
      const maxSeries = Math.min(
        ...tenants.map((t) => this.overrides.forTenant(t).volume_max_series),
      );
      const plan = planVolume(matchers, targetLabels, aggregateBy);

      const series = new Map<string, Sample[]>();
      for (const bucket of volumeBuckets(startNs, endNs, stepNs)) {
        const streams = await this.querier.streamVolumes(
          tenants,
          plan.matchers,
          bucket.fromNs,
          bucket.throughNs,
        );
        const top = topVolumes(accumulateVolumes(streams, plan, maxSeries), limit);
        for (const [name, bytes] of top) {
          let samples = series.get(name);
          if (!samples) series.set(name, (samples = []));
          samples.push({ ns: bucket.atNs, value: bytes });
        }
      }
      return this.volumeReply(reply, series, aggregateBy);
    });
  }

  /** Loki's `ToPrometheusResponse`: a vector unless some series has several samples. */
  private volumeReply(reply: FastifyReply, series: Map<string, Sample[]>, by: AggregateBy): string {
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
