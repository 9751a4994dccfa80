import { type LogLevelResponse, apiPaths } from '@logsvc/api';
import { LOG_LEVELS } from '@logsvc/config';
import { Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { paramValue } from '../../http/params';
import { LOGGER } from '../../tokens';

const JSON_TYPE = 'application/json; charset=UTF-8';

/** `GET/POST /log_level`: read or change the live log level (Loki's JSON bodies). */
@Controller()
export class LogLevelController {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  @Get(apiPaths('log_level'))
  current(@Res({ passthrough: true }) reply: FastifyReply): LogLevelResponse {
    void reply.header('content-type', JSON_TYPE);
    return { message: `Current log level is ${this.logger.level}` };
  }

  @Post(apiPaths('log_level'))
  @HttpCode(200)
  change(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): LogLevelResponse {
    void reply.header('content-type', JSON_TYPE);
    const level = paramValue(request, 'log_level');
    if (level === undefined || !(LOG_LEVELS as readonly string[]).includes(level)) {
      void reply.code(400);
      const got = level === undefined ? 'no log_level parameter' : `"${level}"`;
      return {
        status: 'failed',
        message: `invalid log level: ${got}; expected one of ${LOG_LEVELS.join(', ')}`,
      };
    }
    this.logger.level = level;
    this.logger.info({ level }, 'log level changed');
    return { status: 'success', message: `Log level set to ${level}` };
  }
}
