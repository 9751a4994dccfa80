import { allApiPaths } from '@logsvc/api';
import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestTenants } from '../../../http/tenancy';
import { nowNs, parseTailParams } from '@logsvc/query-codec';
import { requestReader } from '../request-reader';

/**
 * The tail paths asked without a WebSocket upgrade (those are served by `TailSockets`): the
 * request is checked as for a tail, then refused as gorilla/websocket refuses a plain request
 * (400 `Bad Request`, `Sec-Websocket-Version: 13`).
 */
@Controller()
export class TailController {
  @Get(allApiPaths('tail'))
  notUpgraded(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    parseTailParams(requestReader(request), nowNs());
    requestTenants(request, false);
    return reply
      .code(400)
      .header('sec-websocket-version', '13')
      .header('content-type', 'text/plain; charset=utf-8')
      .header('x-content-type-options', 'nosniff')
      .send('Bad Request\n');
  }
}
