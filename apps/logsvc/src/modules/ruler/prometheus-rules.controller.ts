import { apiPaths } from '@logsvc/api';
import { RuleGroupError, alertsResponse, parseRuleType, rulesResponse } from '@logsvc/ruler';
import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TenantId } from '../../http/tenancy';
import { RulerService } from './ruler.service';

const JSON_TYPE = 'application/json';

/** Both Loki's spelling (`rule_name`) and Prometheus' (`rule_name[]`). */
function all(params: URLSearchParams, name: string): string[] {
  return [...params.getAll(name), ...params.getAll(`${name}[]`)];
}

/** `GET /compat/api/v1/rules` and `/alerts` (Loki: `/prometheus/api/v1/...`), Prometheus' JSON. */
@Controller()
export class PrometheusRulesController {
  constructor(@Inject(RulerService) private readonly ruler: RulerService) {}

  @Get(apiPaths('compat_api_rules'))
  rules(@TenantId() tenant: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const params = new URLSearchParams(request.url.split('?')[1] ?? '');
    let type;
    try {
      type = parseRuleType(params.get('type') ?? undefined);
    } catch (err) {
      if (!(err instanceof RuleGroupError)) throw err;
      const body = { status: 'error', data: null, errorType: 'bad_data', error: err.message };
      return reply.status(400).header('content-type', JSON_TYPE).send(JSON.stringify(body));
    }
    const body = rulesResponse(this.ruler.manager.groups(tenant), {
      type,
      files: all(params, 'file'),
      groups: all(params, 'rule_group'),
      names: all(params, 'rule_name'),
    });
    return reply.header('content-type', JSON_TYPE).send(JSON.stringify(body));
  }

  @Get(apiPaths('compat_api_alerts'))
  alerts(@TenantId() tenant: string, @Res() reply: FastifyReply) {
    const body = alertsResponse(this.ruler.manager.groups(tenant));
    return reply.header('content-type', JSON_TYPE).send(JSON.stringify(body));
  }
}
