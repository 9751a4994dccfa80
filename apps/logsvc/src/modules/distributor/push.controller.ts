import { allApiPaths, apiPaths } from '@logsvc/api';
import { Distributor, type PushFormat } from '@logsvc/distributor';
import { LogsvcError } from '@logsvc/errors';
import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { releaseBody } from '../../http/pooled-body';
import { TenantId } from '../../http/tenancy';
import { encodeOtlpStatus, otlpStatusCode } from './otlp-status';

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** block_ingestion_status_code 200 drops the push silently: an empty 200, no error message. */
function isSilentDrop(err: unknown): boolean {
  return err instanceof LogsvcError && err.httpStatus === 200;
}

/**
 * `POST /logsvc/api/v1/push` (and `/loki/api/v1/push`, `/api/compat/push`, `/api/prom/push`)
 * and `POST /otlp/v1/logs`: 204 when everything was stored. Refusals are LogsvcErrors, answered
 * by the exception filter (OTLP encodes its own error body).
 */
@Controller()
export class PushController {
  constructor(@Inject(Distributor) private readonly distributor: Distributor) {}

  @Post(allApiPaths('push'))
  async push(
    @TenantId() tenant: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    try {
      await this.run('loki', tenant, request);
    } catch (err) {
      if (isSilentDrop(err)) return void reply.code(200).send('');
      throw err;
    }
    void reply.code(204).send();
  }

  @Post(apiPaths('otlp_logs'))
  async otlp(
    @TenantId() tenant: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    try {
      await this.run('otlp', tenant, request);
    } catch (err) {
      if (!(err instanceof LogsvcError)) throw err;
      if (isSilentDrop(err)) return void reply.code(200).send('');
      void reply
        .code(otlpStatusCode(err.httpStatus))
        .header('content-type', 'application/octet-stream')
        .send(encodeOtlpStatus(err.message));
      return;
    }
    void reply.code(204).send();
  }

  private async run(format: PushFormat, tenant: string, request: FastifyRequest): Promise<void> {
    try {
      await this.distributor.push({
        tenant,
        format,
        body: request.body,
        contentType: header(request, 'content-type'),
        contentEncoding: header(request, 'content-encoding'),
      });
    } finally {
      // Decoding is over and everything stored was copied: the body's bytes may be reused.
      releaseBody(request.body);
    }
  }
}
