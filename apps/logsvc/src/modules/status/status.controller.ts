import { type BuildInfo, apiPaths, formatServices } from '@logsvc/api';
import type { Config } from '@logsvc/config';
import { Controller, Get, Inject, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { PLAIN_TEXT } from '../../http/exception-filter';
import { httpError } from '../../http/plain-error';
import { readiness } from '../../lifecycle/readiness';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { CONFIG } from '../../tokens';
import { CONFIG_MODES, type ConfigMode, configYaml } from './config-view';
import { readBuildInfo } from './build-info';

/** `/ready`, `/services`, `/config` and buildinfo: every component serves them. */
@Controller()
export class StatusController {
  private readonly buildInfo: BuildInfo = readBuildInfo();

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @Get(apiPaths('ready'))
  ready(@Res({ passthrough: true }) reply: FastifyReply): string {
    const { ready, message } = readiness(this.registry);
    if (!ready) throw httpError(503, message.replace(/\n$/, ''));
    void reply.header('content-type', PLAIN_TEXT);
    return message;
  }

  @Get(apiPaths('services'))
  services(@Res({ passthrough: true }) reply: FastifyReply): string {
    void reply.header('content-type', PLAIN_TEXT);
    return formatServices(this.registry.states());
  }

  @Get(apiPaths('config'))
  configText(
    @Query('mode') mode: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): string {
    // As Loki, a mode it does not know prints the whole configuration.
    const asked = mode ?? '';
    const m = (CONFIG_MODES as readonly string[]).includes(asked) ? (asked as ConfigMode) : '';
    void reply.header('content-type', PLAIN_TEXT);
    return configYaml(this.config, m);
  }

  @Get(apiPaths('buildinfo'))
  buildinfo(@Res({ passthrough: true }) reply: FastifyReply): BuildInfo {
    void reply.header('content-type', 'application/json; charset=UTF-8');
    return this.buildInfo;
  }
}
