import { apiPaths } from '@logsvc/api';
import { formatQuery, ParseError } from '@logsvc/logql';
import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { goJson, JSON_CONTENT_TYPE } from '../querier/encode/json';
import { requestReader } from '../querier/request-reader';

/**
 * `GET/POST format_query`: the query pretty-printed, or 400 with status `invalid-query` and the
 * parse error, in Loki's JSON body (`pkg/loki/format_query_handler.go`).
 */
@Controller()
export class FormatQueryController {
  @Get(apiPaths('format_query'))
  get(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): string {
    return this.format(request, reply);
  }

  @Post(apiPaths('format_query'))
  @HttpCode(200)
  post(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): string {
    return this.format(request, reply);
  }

  private format(request: FastifyRequest, reply: FastifyReply): string {
    const query = requestReader(request)('query') ?? '';
    void reply.header('content-type', JSON_CONTENT_TYPE);
    try {
      return goJson({ status: 'success', data: formatQuery(query) }) + '\n';
    } catch (err) {
      if (!(err instanceof ParseError)) throw err;
      void reply.code(400);
      return goJson({ status: 'invalid-query', error: err.message }) + '\n';
    }
  }
}
