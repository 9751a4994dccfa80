import { UI_RULES_PATH } from '@logsvc/api';
import type { Config } from '@logsvc/config';
import { ERR_NO_RULE_GROUPS, RuleNotFoundError, RulesApi } from '@logsvc/ruler';
import { Controller, Get, Inject, Optional, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { httpError } from '../../http/plain-error';
import { requestTenants } from '../../http/tenancy';
import { CONFIG } from '../../tokens';

const YAML_TYPE = 'application/yaml';

/**
 * `GET /ui/api/rules`: the tenant's stored rule groups as `GET /loki/api/v1/rules` answers
 * them (the ruler's `RulesApi.list`), except that a tenant without any gets an empty YAML map
 * with 200 rather than Loki's 404 `no rule groups found` (which a browser logs as an error on
 * every refresh). Without a ruler in the process, or without `ruler.enable_api`, 404 as the
 * rules route's absence answers.
 */
@Controller()
export class UiRulesController {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Optional() @Inject(RulesApi) private readonly rules?: RulesApi,
  ) {}

  @Get(UI_RULES_PATH)
  async list(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const notFound = httpError(404, '404 page not found');
    if (this.rules === undefined) throw notFound;
    const tenant = requestTenants(request, false)[0];
    if (!this.config.ruler.enable_api) throw notFound;
    let body = '{}\n';
    try {
      body = await this.rules.list(tenant);
    } catch (err) {
      if (!(err instanceof RuleNotFoundError && err.message === ERR_NO_RULE_GROUPS)) throw err;
    }
    void reply.header('content-type', YAML_TYPE).send(body);
  }
}
