import { type BuildInfo, apiPaths, formatServices } from '@logsvc/api';
import type { Config } from '@logsvc/config';
import { Controller, Get, Inject, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  type LocalAnswer,
  type LocalEndpoint,
  type LocalEndpointSource,
  LocalEndpoints,
  getAt,
  jsonAnswer,
  sendAnswer,
  textAnswer,
} from '../../http/local-endpoints';
import { httpError } from '../../http/plain-error';
import { readiness } from '../../lifecycle/readiness';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { CONFIG } from '../../tokens';
import { CONFIG_MODES, type ConfigMode, configYaml } from './config-view';
import { readBuildInfo } from './build-info';

/** `/ready`, `/services`, `/config` and buildinfo: every component serves them. */
@LocalEndpoints()
@Controller()
export class StatusController implements LocalEndpointSource {
  private readonly buildInfo: BuildInfo = readBuildInfo();

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  localEndpoints(): Record<string, LocalEndpoint> {
    return {
      ...getAt(apiPaths('ready'), () => this.readyAnswer()),
      ...getAt(apiPaths('services'), () => this.servicesAnswer()),
      ...getAt(apiPaths('config'), ({ query }) =>
        this.configAnswer(query.get('mode') ?? undefined),
      ),
      ...getAt(apiPaths('buildinfo'), () => this.buildInfoAnswer()),
    };
  }

  @Get(apiPaths('ready'))
  ready(@Res() reply: FastifyReply) {
    return sendAnswer(reply, this.readyAnswer());
  }

  @Get(apiPaths('services'))
  services(@Res() reply: FastifyReply) {
    return sendAnswer(reply, this.servicesAnswer());
  }

  @Get(apiPaths('config'))
  configText(@Query('mode') mode: string | undefined, @Res() reply: FastifyReply) {
    return sendAnswer(reply, this.configAnswer(mode));
  }

  @Get(apiPaths('buildinfo'))
  buildinfo(@Res() reply: FastifyReply) {
    return sendAnswer(reply, this.buildInfoAnswer());
  }

  private readyAnswer(): LocalAnswer {
    const { ready, message } = readiness(this.registry);
    if (!ready) throw httpError(503, message.replace(/\n$/, ''));
    return textAnswer(message);
  }

  private servicesAnswer(): LocalAnswer {
    return textAnswer(formatServices(this.registry.states()));
  }

  private configAnswer(mode: string | undefined): LocalAnswer {
    // As Loki, a mode it does not know prints the whole configuration.
    const asked = mode ?? '';
    const m = (CONFIG_MODES as readonly string[]).includes(asked) ? (asked as ConfigMode) : '';
    return textAnswer(configYaml(this.config, m));
  }

  private buildInfoAnswer(): LocalAnswer {
    return jsonAnswer(this.buildInfo, 'application/json; charset=UTF-8');
  }
}
