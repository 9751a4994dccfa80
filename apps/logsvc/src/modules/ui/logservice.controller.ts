import { LOGSERVICE_PATH, type LogServiceView } from '@logsvc/api';
import type { Config } from '@logsvc/config';
import { Controller, Get, Inject } from '@nestjs/common';
import {
  type LocalEndpoint,
  type LocalEndpointSource,
  LocalEndpoints,
  getAt,
  jsonAnswer,
} from '../../http/local-endpoints';
import type { StartupFiles } from '../../startup-files';
import { CONFIG, STARTUP_FILES } from '../../tokens';
import { readLogServiceView } from './logservice-view';

/**
 * `GET /ui/api/logservice`: in a Kubernetes deployment of the logsvc operator, the LogService
 * resource's spec beside the config it rendered for this process; 404 elsewhere.
 */
@LocalEndpoints()
@Controller()
export class LogServiceController implements LocalEndpointSource {
  constructor(
    @Inject(STARTUP_FILES) private readonly files: StartupFiles,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  localEndpoints(): Record<string, LocalEndpoint> {
    return getAt([LOGSERVICE_PATH], async () => jsonAnswer(await this.view()));
  }

  @Get(LOGSERVICE_PATH)
  view(): Promise<LogServiceView> {
    return readLogServiceView(this.files, this.config);
  }
}
