import { apiPaths, deprecatedApiPaths } from '@logsvc/api';
import type { Config } from '@logsvc/config';
import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GetOrPost } from '../../http/get-or-post';
import { TenantIds } from '../../http/tenancy';
import { CONFIG } from '../../tokens';
import {
  JSON_CONTENT_TYPE,
  legacyQueryResponseJson,
  PARQUET_TYPE,
  resultToParquet,
  wantsCategories,
  queryResponseJson,
  ParamError,
  nowNs,
  parseInstantQuery,
  parseRangeQuery,
} from '@logsvc/query-codec';
import { requestReader } from '../querier/request-reader';
import { clientSignal } from '../querier/client-signal';
import type { FrontendQueryRequest } from '@logsvc/frontend';
import { QUERY_PATH, type QueryPath } from './query-path';

const ACTOR_PATH_HEADERS = ['x-logsvc-actor-path', 'x-loki-actor-path'];

/** The query fairness sub-queue path (`X-Logsvc-Actor-Path: a|b`), or none. */
function actorPath(request: FastifyRequest): string[] {
  for (const h of ACTOR_PATH_HEADERS) {
    const v = request.headers[h];
    const text = Array.isArray(v) ? v[0] : v;
    if (text !== undefined && text !== '') return text.split('|');
  }
  return [];
}

function wantsParquet(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes(PARQUET_TYPE);
}

type Kind = 'instant' | 'range' | 'legacy';

/** `query` (instant), `query_range`, and the legacy `/api/prom/query`; GET or form POST. */
@Controller()
export class QueryController {
  constructor(
    @Inject(QUERY_PATH) private readonly queryPath: QueryPath,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @GetOrPost(apiPaths('query'))
  instant(@TenantIds() t: string[], @Req() q: FastifyRequest, @Res() r: FastifyReply) {
    return this.answer('instant', t, q, r);
  }

  @GetOrPost(apiPaths('query_range'))
  range(@TenantIds() t: string[], @Req() q: FastifyRequest, @Res() r: FastifyReply) {
    return this.answer('range', t, q, r);
  }

  @GetOrPost(deprecatedApiPaths('query'))
  legacy(@TenantIds() t: string[], @Req() q: FastifyRequest, @Res() r: FastifyReply) {
    return this.answer('legacy', t, q, r);
  }

  private async answer(
    kind: Kind,
    tenants: string[],
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const parquet = kind !== 'legacy' && wantsParquet(request);
    const categorize = kind !== 'legacy' && wantsCategories(request.headers);
    const query = this.parse(kind, tenants, request, reply, categorize);
    if (parquet && !this.config.frontend.support_parquet_encoding) {
      throw new ParamError(
        'support for Parquet encoded responses is disabled. Enable with -frontend.support-parquet-encoding=true',
      );
    }
    const { result, stats, resultCache } = await this.queryPath.query(query);
    if (parquet) {
      return reply.header('content-type', PARQUET_TYPE).send(await resultToParquet(result));
    }
    const body =
      kind === 'legacy'
        ? legacyQueryResponseJson(result, stats)
        : queryResponseJson(result, stats, categorize, resultCache);
    return reply.header('content-type', JSON_CONTENT_TYPE).send(body);
  }

  private parse(
    kind: Kind,
    tenants: string[],
    request: FastifyRequest,
    reply: FastifyReply,
    categorizeLabels: boolean,
  ): FrontendQueryRequest {
    const read = requestReader(request);
    const now = nowNs();
    const common = {
      tenants,
      categorizeLabels,
      clientSignal: clientSignal(reply),
      logQueriesOnly: kind === 'legacy',
      actorPath: actorPath(request),
    };
    if (kind === 'instant') {
      const p = parseInstantQuery(read, now);
      return {
        ...common,
        kind: 'instant',
        query: p.query,
        startNs: p.timeNs,
        endNs: p.timeNs,
        stepNs: 0n,
        intervalNs: 0n,
        limit: p.limit,
        direction: p.direction,
        ...(p.shard === undefined ? {} : { shard: p.shard }),
      };
    }
    const p = parseRangeQuery(read, now);
    return { ...common, kind: 'range', ...p };
  }
}
