import { apiPaths } from '@logsvc/api';
import type { AlertsResponse, RuleGroupJson, RulesAlertJson, RulesResponse } from '@logsvc/api';
import { RuleGroupError, parseRuleType } from '@logsvc/ruler';
import type { RulesCallRequest } from '@logsvc/rpc';
import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TenantId } from '../../http/tenancy';
import { RulerService } from './ruler.service';

const JSON_TYPE = 'application/json';

/** Both Loki's spelling (`rule_name`) and Prometheus' (`rule_name[]`). */
function all(params: URLSearchParams, name: string): string[] {
  return [...params.getAll(name), ...params.getAll(`${name}[]`)];
}

/**
 * `GET /compat/api/v1/rules` and `/alerts` (Loki: `/prometheus/api/v1/...`), Prometheus' JSON,
 * of every ruler of the cluster.
 */
@Controller()
export class PrometheusRulesController {
  constructor(@Inject(RulerService) private readonly ruler: RulerService) {}

  @Get(apiPaths('compat_api_rules'))
  async rules(
    @TenantId() tenant: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    const params = new URLSearchParams(request.url.split('?')[1] ?? '');
    let type;
    try {
      type = parseRuleType(params.get('type') ?? undefined);
    } catch (err) {
      if (!(err instanceof RuleGroupError)) throw err;
      const body = { status: 'error', data: null, errorType: 'bad_data', error: err.message };
      return reply.status(400).header('content-type', JSON_TYPE).send(JSON.stringify(body));
    }
    const groups = await this.gather(tenant, reply, {
      ...(type === undefined ? {} : { type }),
      files: all(params, 'file'),
      groups: all(params, 'rule_group'),
      names: all(params, 'rule_name'),
    });
    if (!groups) return reply;
    const body: RulesResponse = { status: 'success', data: { groups }, errorType: '', error: '' };
    return reply.header('content-type', JSON_TYPE).send(JSON.stringify(body));
  }

  @Get(apiPaths('compat_api_alerts'))
  async alerts(@TenantId() tenant: string, @Res() reply: FastifyReply) {
    const groups = await this.gather(tenant, reply, {
      type: 'alert',
      files: [],
      groups: [],
      names: [],
    });
    if (!groups) return reply;
    const alerts: RulesAlertJson[] = groups.flatMap((g) =>
      g.rules.flatMap((r) => (r.type === 'alerting' ? r.alerts : [])),
    );
    const body: AlertsResponse = { status: 'success', data: { alerts }, errorType: '', error: '' };
    return reply.header('content-type', JSON_TYPE).send(JSON.stringify(body));
  }

  /** The cluster's groups, or undefined once a failure was answered (Loki: 500 server_error). */
  private async gather(
    tenant: string,
    reply: FastifyReply,
    request: RulesCallRequest,
  ): Promise<RuleGroupJson[] | undefined> {
    try {
      return await this.ruler.clusterRules(tenant, request);
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      const body = { status: 'error', data: null, errorType: 'server_error', error };
      await reply.status(500).header('content-type', JSON_TYPE).send(JSON.stringify(body));
      return undefined;
    }
  }
}
