import { apiPaths, type RouteName } from '@logsvc/api';
import type { Config } from '@logsvc/config';
import { ACCEPTED_BODY, RulesApi } from '@logsvc/ruler';
import { Controller, Delete, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { httpError } from '../../http/plain-error';
import { TenantId } from '../../http/tenancy';
import { CONFIG } from '../../tokens';
import { RulerService } from './ruler.service';

const YAML_TYPE = 'application/yaml';
const JSON_TYPE = 'application/json';

function paths(...names: RouteName[]): string[] {
  return names.flatMap((n) => apiPaths(n));
}

/**
 * Loki's rules API (`/loki/api/v1/rules…`, `/api/prom/rules…`, and the spec's
 * `/logsvc/api/v1/rules…`, `/api/compat/rules…`): YAML listings, 202 on writes.
 */
@Controller()
export class RulesController {
  private readonly api: RulesApi;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(RulerService) private readonly ruler: RulerService,
    @Inject(RulesApi) api: RulesApi,
  ) {
    this.api = api;
  }

  @Get(paths('rules', 'compat_rules'))
  async list(@TenantId() tenant: string, @Res() reply: FastifyReply) {
    this.checkEnabled();
    return reply.header('content-type', YAML_TYPE).send(await this.api.list(tenant));
  }

  @Get(paths('rules_namespace', 'compat_rules_namespace'))
  async namespace(
    @TenantId() tenant: string,
    @Param('namespace') namespace: string,
    @Res() reply: FastifyReply,
  ) {
    this.checkEnabled();
    return reply.header('content-type', YAML_TYPE).send(await this.api.list(tenant, namespace));
  }

  @Get(paths('rules_group', 'compat_rules_group'))
  async group(
    @TenantId() tenant: string,
    @Param('namespace') namespace: string,
    @Param('groupName') group: string,
    @Res() reply: FastifyReply,
  ) {
    this.checkEnabled();
    const body = await this.api.getGroup(tenant, namespace, group);
    return reply.header('content-type', YAML_TYPE).send(body);
  }

  @Post(paths('rules_namespace', 'compat_rules_namespace'))
  async create(
    @TenantId() tenant: string,
    @Param('namespace') namespace: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    this.checkEnabled();
    const body = request.body;
    const text = Buffer.isBuffer(body)
      ? body.toString('utf8')
      : typeof body === 'string'
        ? body
        : '';
    await this.api.setGroup(tenant, namespace, text);
    return this.accepted(reply);
  }

  @Delete(paths('rules_group', 'compat_rules_group'))
  async deleteGroup(
    @TenantId() tenant: string,
    @Param('namespace') namespace: string,
    @Param('groupName') group: string,
    @Res() reply: FastifyReply,
  ) {
    this.checkEnabled();
    await this.api.deleteGroup(tenant, namespace, group);
    return this.accepted(reply);
  }

  @Delete(paths('rules_namespace', 'compat_rules_namespace'))
  async deleteNamespace(
    @TenantId() tenant: string,
    @Param('namespace') namespace: string,
    @Res() reply: FastifyReply,
  ) {
    this.checkEnabled();
    await this.api.deleteNamespace(tenant, namespace);
    return this.accepted(reply);
  }

  private checkEnabled(): void {
    // Loki registers no rules routes without ruler.enable_api.
    if (!this.config.ruler.enable_api) throw httpError(404, '404 page not found');
  }

  /** Stored and queued for polling, not active yet: 202. This ruler picks it up at once. */
  private accepted(reply: FastifyReply) {
    void this.ruler.sync();
    return reply.status(202).header('content-type', JSON_TYPE).send(ACCEPTED_BODY);
  }
}
