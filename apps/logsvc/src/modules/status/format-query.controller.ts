import { type FormatQueryResponse, apiPaths } from '@logsvc/api';
import { formatQuery, ParseError } from '@logsvc/logql';
import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GetOrPost } from '../../http/get-or-post';
import { goJson, JSON_CONTENT_TYPE } from '@logsvc/query-codec';
import { requestReader } from '../querier/request-reader';

/**
 * `GET/POST format_query`: the query pretty-printed, or 400 with status `invalid-query` and the
 * parse error, in Loki's JSON body (`pkg/loki/format_query_handler.go`).
 */
@Controller()
export class FormatQueryController {
  @GetOrPost(apiPaths('format_query'))
  format(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): string {
    const query = requestReader(request)('query') ?? '';
    void reply.header('content-type', JSON_CONTENT_TYPE);
    try {
      const body: FormatQueryResponse = { status: 'success', data: formatQuery(query) };
      return goJson(body) + '\n';
    } catch (err) {
      if (!(err instanceof ParseError)) throw err;
      void reply.code(400);
      const body: FormatQueryResponse = { status: 'invalid-query', error: err.message };
      return goJson(body) + '\n';
    }
  }
}
