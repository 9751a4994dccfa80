import { apiPaths, deprecatedApiPaths, labelsToRecord } from '@logsvc/api';
import { Querier } from '@logsvc/querier';
import { Controller, Inject, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GetOrPost } from '../../http/get-or-post';
import { TenantIds } from '../../http/tenancy';
import {
  JSON_CONTENT_TYPE,
  HOUR_NS,
  nowNs,
  parseBounds,
  parseMatchGroups,
  parseSelector,
} from '@logsvc/query-codec';
import { paramValues, requestReader } from './request-reader';

/** The spec's default range of labels and label values: 6 hours (Loki's code uses 1 hour). */
const LABELS_SINCE_NS = 6n * HOUR_NS;

/** Loki's legacy paths (`/api/prom/label...`) answer `{"values":[...]}`. */
const isLegacy = (request: FastifyRequest): boolean =>
  request.url.startsWith('/api/prom/') || request.url.startsWith('/api/compat/');

/** The range and optional stream selector of a labels or label values request. */
function labelsRequest(request: FastifyRequest) {
  const read = requestReader(request);
  const query = read('query');
  return {
    ...parseBounds(read, nowNs(), LABELS_SINCE_NS),
    matchers: query ? parseSelector(query) : [],
  };
}

/** `labels`, `label/<name>/values` and `series`, GET or form POST. */
@Controller()
export class MetadataController {
  constructor(@Inject(Querier) private readonly querier: Querier) {}

  @GetOrPost([...apiPaths('labels'), ...deprecatedApiPaths('labels')])
  async labels(
    @TenantIds() tenants: string[],
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const { startNs, endNs, matchers } = labelsRequest(request);
    const names = await this.querier.labelNames(tenants, startNs, endNs, matchers);
    return this.listReply(request, reply, names);
  }

  @GetOrPost([...apiPaths('label_values'), ...deprecatedApiPaths('label_values')])
  async values(
    @TenantIds() tenants: string[],
    @Param('name') name: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const { startNs, endNs, matchers } = labelsRequest(request);
    const values = await this.querier.labelValues(tenants, name, startNs, endNs, matchers);
    return this.listReply(request, reply, values);
  }

  @GetOrPost([...apiPaths('series'), ...deprecatedApiPaths('series')])
  async series(
    @TenantIds() tenants: string[],
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const read = requestReader(request);
    const groups = parseMatchGroups([
      ...paramValues(request, 'match[]'),
      ...paramValues(request, 'match'),
    ]);
    const { startNs, endNs } = parseBounds(read, nowNs(), HOUR_NS);
    const found = await this.querier.series(tenants, groups, startNs, endNs);
    void reply.header('content-type', JSON_CONTENT_TYPE);
    return JSON.stringify({ status: 'success', data: found.map(labelsToRecord) });
  }

  /** Loki omits `data` when there are no names or values. */
  private listReply(request: FastifyRequest, reply: FastifyReply, list: string[]): string {
    void reply.header('content-type', JSON_CONTENT_TYPE);
    if (isLegacy(request)) return JSON.stringify({ values: list });
    return JSON.stringify(
      list.length > 0 ? { status: 'success', data: list } : { status: 'success' },
    );
  }
}
