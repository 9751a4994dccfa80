import { LOGSERVICE_PATH, type LogServiceView } from '@logsvc/api';
import type { Config } from '@logsvc/config';
import { Controller, Get, Inject } from '@nestjs/common';
import type { StartupFiles } from '../../startup-files';
import { CONFIG, STARTUP_FILES } from '../../tokens';
import { readLogServiceView } from './logservice-view';

/**
 * `GET /ui/api/logservice`: in a Kubernetes deployment of the logsvc operator, the LogService
 * resource's spec beside the config it rendered for this process; 404 elsewhere.
 */
@Controller()
export class LogServiceController {
  constructor(
    @Inject(STARTUP_FILES) private readonly files: StartupFiles,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @Get(LOGSERVICE_PATH)
  view(): Promise<LogServiceView> {
    return readLogServiceView(this.files, this.config);
  }
}
