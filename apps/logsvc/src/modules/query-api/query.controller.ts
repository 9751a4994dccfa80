import { apiPaths, deprecatedApiPaths } from '@logsvc/api';
import type { Config } from '@logsvc/config';
import { answerQueryEndpoint, type QueryEndpoint } from '@logsvc/frontend';
import { nowNs } from '@logsvc/query-codec';
import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GetOrPost } from '../../http/get-or-post';
import { TenantIds } from '../../http/tenancy';
import { CONFIG } from '../../tokens';
import { clientSignal } from '../querier/client-signal';
import { requestReader } from '../querier/request-reader';
import { QUERY_PATH, type QueryPath } from './query-path';

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
    endpoint: QueryEndpoint,
    tenants: string[],
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const call = {
      endpoint,
      tenants,
      read: requestReader(request),
      headers: request.headers,
      signal: clientSignal(reply),
      nowNs: nowNs(),
    };
    const answer = await answerQueryEndpoint((q) => this.queryPath.query(q), call, {
      supportParquet: this.config.frontend.support_parquet_encoding,
    });
    return reply.header('content-type', answer.contentType).send(answer.body);
  }
}
