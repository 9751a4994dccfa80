import { apiPaths } from '@logsvc/api';
import { LogsvcError } from '@logsvc/errors';
import { selectorMatchers } from './params/selectors';
import { PatternQuerier, roundToMilliseconds, type PatternSeries } from '@logsvc/pattern';
import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GetOrPost } from '../../http/get-or-post';
import { TenantId } from '../../http/tenancy';
import { PATTERN_QUERIER } from '../clients/pattern-clients.provider';
import { goJsonString, JSON_CONTENT_TYPE } from './encode/json';
import {
  HOUR_NS,
  ParamError,
  checkResolution,
  defaultStepNs,
  nowNs,
  parseBounds,
  parseSecondsOrDuration,
} from './params/query-params';
import { requestReader } from './request-reader';

const NS_PER_MS = 1_000_000n;

/**
 * `GET /patterns` (Loki's PatternsHandler): the patterns the pattern ingesters found in the
 * selected streams, with their line counts per step. Without `pattern_ingester.enabled` the
 * querier has no pattern querier and answers 404 with an empty message, as Loki.
 */
@Controller()
export class PatternsController {
  constructor(@Inject(PATTERN_QUERIER) private readonly patterns: PatternQuerier | null) {}

  @GetOrPost(apiPaths('patterns'))
  async route(
    @TenantId() tenant: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const read = requestReader(request);
    // Loki's ParsePatternsQuery: bounds (default: the last hour), then the step.
    const { startNs, endNs } = parseBounds(read, nowNs(), HOUR_NS);
    const stepText = read('step');
    const stepNs = stepText ? parseSecondsOrDuration(stepText) : defaultStepNs(startNs, endNs);
    if (stepNs <= 0n) {
      throw new ParamError(
        'zero or negative query resolution step widths are not accepted. Try a positive integer',
      );
    }
    checkResolution(startNs, endNs, stepNs);
    if (!this.patterns) throw new LogsvcError('not_found', '');
    const matchers = selectorMatchers(read('query') ?? '');
    const [fromMs, throughMs] = roundToMilliseconds(startNs, endNs);
    const series = await this.patterns.patterns(tenant, {
      matchers,
      fromMs,
      throughMs,
      stepMs: Number(stepNs / NS_PER_MS),
    });
    void reply.header('content-type', JSON_CONTENT_TYPE);
    return patternsJson(series);
  }
}

/** Loki's WriteQueryPatternsResponseJSON: `[<unix seconds>, <count>]` samples, a final newline. */
export function patternsJson(series: readonly PatternSeries[]): string {
  const data = series.map(
    (s) =>
      `{"pattern":${goJsonString(s.pattern)},"samples":[` +
      s.samples.map((p) => `[${Math.floor(p.timestampMs / 1000)},${p.value}]`).join(',') +
      ']}',
  );
  return `{"status":"success","data":[${data.join(',')}]}\n`;
}
