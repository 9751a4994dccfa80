import { type LogLevelResponse, apiPaths } from '@logsvc/api';
import { LOG_LEVELS } from '@logsvc/config';
import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import {
  type LocalAnswer,
  type LocalEndpoint,
  type LocalEndpointSource,
  LocalEndpoints,
  endpointAt,
  sendAnswer,
} from '../../http/local-endpoints';
import { paramValue } from '../../http/params';
import { LOGGER } from '../../tokens';

const JSON_TYPE = 'application/json; charset=UTF-8';

function answer(status: number, body: LogLevelResponse): LocalAnswer {
  return { status, contentType: JSON_TYPE, body: JSON.stringify(body) };
}

/** `GET/POST /log_level`: read or change the live log level (Loki's JSON bodies). */
@LocalEndpoints()
@Controller()
export class LogLevelController implements LocalEndpointSource {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  localEndpoints(): Record<string, LocalEndpoint> {
    return endpointAt(apiPaths('log_level'), {
      GET: () => this.currentAnswer(),
      POST: ({ query }) => this.changeAnswer(query.get('log_level') ?? undefined),
    });
  }

  @Get(apiPaths('log_level'))
  current(@Res() reply: FastifyReply) {
    return sendAnswer(reply, this.currentAnswer());
  }

  @Post(apiPaths('log_level'))
  change(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return sendAnswer(reply, this.changeAnswer(paramValue(request, 'log_level')));
  }

  private currentAnswer(): LocalAnswer {
    return answer(200, { message: `Current log level is ${this.logger.level}` });
  }

  private changeAnswer(level: string | undefined): LocalAnswer {
    if (level === undefined || !(LOG_LEVELS as readonly string[]).includes(level)) {
      const got = level === undefined ? 'no log_level parameter' : `"${level}"`;
      return answer(400, {
        status: 'failed',
        message: `invalid log level: ${got}; expected one of ${LOG_LEVELS.join(', ')}`,
      });
    }
    this.logger.level = level;
    this.logger.info({ level }, 'log level changed');
    return answer(200, { status: 'success', message: `Log level set to ${level}` });
  }
}
