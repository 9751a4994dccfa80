import { apiPaths } from '@logsvc/api';
import type { Config } from '@logsvc/config';
import { ProcessTerminator } from '@logsvc/ingester';
import { removeTokensFile } from '@logsvc/ring';
import { Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import {
  type LocalAnswer,
  type LocalEndpoint,
  type LocalEndpointSource,
  LocalEndpoints,
  endpointAt,
  sendAnswer,
  textAnswer,
} from '../../http/local-endpoints';
import { paramValue } from '../../http/params';
import { CONFIG, LOGGER } from '../../tokens';
import { IngesterService } from './ingester.service';

/** Go's `util.FlagFromValues`: t/true/1 and f/false/0 (any case), else the default. */
export function flagValue(value: string | undefined, fallback: boolean): boolean {
  switch ((value ?? '').toLowerCase()) {
    case 't':
    case 'true':
    case '1':
      return true;
    case 'f':
    case 'false':
    case '0':
      return false;
    default:
      return fallback;
  }
}

const NO_CONTENT: LocalAnswer = { status: 204, body: '' };

/**
 * `/flush`, `/ingester/prepare_shutdown`, `/ingester/shutdown`, `/ingester/flush_shutdown`.
 * The service's errors are LogsvcErrors: 503 while the ingester is not Running, 500 when a
 * flush fails.
 */
@LocalEndpoints()
@Controller()
export class IngesterController implements LocalEndpointSource {
  constructor(
    @Inject(IngesterService) private readonly ingester: IngesterService,
    @Inject(ProcessTerminator) private readonly terminator: ProcessTerminator,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  localEndpoints(): Record<string, LocalEndpoint> {
    const flush = async (): Promise<LocalAnswer> => {
      await this.flushAll();
      return NO_CONTENT;
    };
    const prepare = (mode: 'set' | 'unset') => async (): Promise<LocalAnswer> => {
      await this.ingester.prepareShutdown(mode);
      return NO_CONTENT;
    };
    return {
      ...endpointAt(apiPaths('flush'), { GET: flush, POST: flush }),
      ...endpointAt(apiPaths('ingester_prepare_shutdown'), {
        GET: () => this.preparedAnswer(),
        POST: prepare('set'),
        DELETE: prepare('unset'),
      }),
    };
  }

  @Post(apiPaths('flush'))
  @HttpCode(204)
  flush(): Promise<void> {
    return this.flushAll();
  }

  /** Loki's handler takes any method; GET is handy with a browser or curl without -X. */
  @Get(apiPaths('flush'))
  @HttpCode(204)
  flushByGet(): Promise<void> {
    return this.flushAll();
  }

  private flushAll(): Promise<void> {
    return this.ingester.flush();
  }

  @Get(apiPaths('ingester_prepare_shutdown'))
  async preparedState(@Res() reply: FastifyReply) {
    return sendAnswer(reply, await this.preparedAnswer());
  }

  private async preparedAnswer(): Promise<LocalAnswer> {
    return textAnswer((await this.ingester.prepareShutdown('get')) ? 'set' : 'unset');
  }

  @Post(apiPaths('ingester_prepare_shutdown'))
  @HttpCode(204)
  async prepare(): Promise<void> {
    await this.ingester.prepareShutdown('set');
  }

  @Delete(apiPaths('ingester_prepare_shutdown'))
  @HttpCode(204)
  async unprepare(): Promise<void> {
    await this.ingester.prepareShutdown('unset');
  }

  /** Parameters `flush` (default true), `delete_ring_tokens` (false), `terminate` (true). */
  @Post(apiPaths('ingester_shutdown'))
  shutdown(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.shutdownWith(request, reply);
  }

  @Get(apiPaths('ingester_shutdown'))
  shutdownByGet(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.shutdownWith(request, reply);
  }

  private async shutdownWith(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await this.stop(reply, {
      flush: flagValue(paramValue(request, 'flush'), true),
      deleteRingTokens: flagValue(paramValue(request, 'delete_ring_tokens'), false),
      terminate: flagValue(paramValue(request, 'terminate'), true),
    });
  }

  /** Deprecated: flushes and stops the ingester, but leaves the process running. */
  @Post(apiPaths('ingester_flush_shutdown'))
  flushShutdown(@Res() reply: FastifyReply): Promise<void> {
    return this.stop(reply, { flush: true, deleteRingTokens: false, terminate: false });
  }

  @Get(apiPaths('ingester_flush_shutdown'))
  flushShutdownByGet(@Res() reply: FastifyReply): Promise<void> {
    return this.stop(reply, { flush: true, deleteRingTokens: false, terminate: false });
  }

  private async stop(
    reply: FastifyReply,
    opts: { flush: boolean; deleteRingTokens: boolean; terminate: boolean },
  ): Promise<void> {
    this.logger.info(opts, 'ingester shutdown requested over HTTP');
    await this.ingester.shutdown({ flush: opts.flush });
    // As Loki: the token file goes only when asked for and when a path is configured.
    const tokensFile = this.config.ingester.lifecycler.tokens_file_path;
    if (opts.deleteRingTokens && tokensFile !== '') {
      await removeTokensFile(tokensFile).catch((err: unknown) =>
        this.logger.warn({ err, tokensFile }, 'could not delete the ring token file'),
      );
    }
    if (opts.terminate) {
      // Only once the 204 is on the wire, so the caller sees the shutdown succeed.
      reply.raw.once('finish', () => {
        if (!this.terminator.terminate()) {
          this.logger.warn('terminate requested, but nothing handles SIGTERM in this process');
        }
      });
    }
    void reply.code(204).send();
  }
}
