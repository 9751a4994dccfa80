import { UI_RULES_PATH } from '@logsvc/api';
import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * `GET /ui/api/rules`: the tenant's stored rule groups as `GET /loki/api/v1/rules` answers
 * them, except that a tenant without any gets an empty YAML map with 200 rather than Loki's
 * 404 `no rule groups found` (which a browser logs as an error on every refresh).
 */
@Controller()
export class UiRulesController {
  constructor(@Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost) {}

  @Get(UI_RULES_PATH)
  async rules(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const headers: Record<string, string> = {};
    const tenant = request.headers['x-scope-orgid'];
    if (typeof tenant === 'string') headers['x-scope-orgid'] = tenant;
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const res = await fastify.inject({ method: 'GET', url: '/loki/api/v1/rules', headers });
    if (res.statusCode === 404 && res.body.includes('no rule groups found')) {
      void reply.code(200).header('content-type', 'application/yaml').send('{}\n');
      return;
    }
    const type = res.headers['content-type'];
    if (typeof type === 'string') void reply.header('content-type', type);
    void reply.code(res.statusCode).send(res.rawPayload);
  }
}
