import { apiPaths, deprecatedApiPaths } from '@logsvc/api';
import type { Config } from '@logsvc/config';
import { answerQueryEndpoint, type QueryEndpoint, tenantsOrRefusal } from '@logsvc/frontend';
import { nowNs, type ParamReader } from '@logsvc/query-codec';
import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { GetOrPost } from '../../http/get-or-post';
import {
  type LocalEndpoint,
  type LocalEndpointSource,
  type LocalRequest,
  LocalEndpoints,
  endpointAt,
  sendAnswer,
} from '../../http/local-endpoints';
import { TenantIds, tenancyOf } from '../../http/tenancy';
import { CONFIG } from '../../tokens';
import { clientSignal } from '../querier/client-signal';
import { requestReader } from '../querier/request-reader';
import { QUERY_PATH, type QueryPath } from './query-path';

/** `query` (instant), `query_range`, and the legacy `/api/prom/query`; GET or form POST. */
@LocalEndpoints()
@Controller()
export class QueryController implements LocalEndpointSource {
  constructor(
    @Inject(QUERY_PATH) private readonly queryPath: QueryPath,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  localEndpoints(): Record<string, LocalEndpoint> {
    const at = (paths: string[], endpoint: QueryEndpoint) => {
      const answer = (request: LocalRequest) => this.localAnswer(endpoint, request);
      return endpointAt(paths, { GET: answer, POST: answer });
    };
    return {
      ...at(apiPaths('query'), 'instant'),
      ...at(apiPaths('query_range'), 'range'),
      ...at(deprecatedApiPaths('query'), 'legacy'),
    };
  }

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
    const read = requestReader(request);
    const answer = await this.run(endpoint, tenants, read, request.headers, clientSignal(reply));
    return sendAnswer(reply, answer);
  }

  private async localAnswer(endpoint: QueryEndpoint, request: LocalRequest) {
    const tenants = tenantsOrRefusal(request.headers, tenancyOf(this.config), true);
    if (!Array.isArray(tenants)) return tenants;
    const read = (name: string) => request.query.get(name) ?? undefined;
    return this.run(endpoint, tenants, read, request.headers, request.signal);
  }

  private run(
    endpoint: QueryEndpoint,
    tenants: string[],
    read: ParamReader,
    headers: IncomingHttpHeaders,
    signal: AbortSignal,
  ) {
    const call = { endpoint, tenants, read, headers, signal, nowNs: nowNs() };
    return answerQueryEndpoint((q) => this.queryPath.query(q), call, {
      supportParquet: this.config.frontend.support_parquet_encoding,
    });
  }
}
