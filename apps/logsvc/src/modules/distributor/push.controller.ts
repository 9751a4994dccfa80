import { allApiPaths, apiPaths } from '@logsvc/api';
import { PushError } from '@logsvc/push';
import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { httpError } from '../../http/plain-error';
import { releaseBody } from '../../http/pooled-body';
import { TenantId } from '../../http/tenancy';
import { DistributorService, type PushFormat } from './distributor.service';
import { encodeOtlpStatus, otlpStatusCode } from './otlp-status';

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/**
 * `POST /logsvc/api/v1/push` (and `/loki/api/v1/push`, `/api/compat/push`, `/api/prom/push`)
 * and `POST /otlp/v1/logs`: 204 when everything was stored.
 */
@Controller()
export class PushController {
  constructor(@Inject(DistributorService) private readonly distributor: DistributorService) {}

  @Post(allApiPaths('push'))
  async push(
    @TenantId() tenant: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    try {
      await this.run('loki', tenant, request);
    } catch (err) {
      if (!(err instanceof PushError)) throw err;
      // block_ingestion_status_code 200 drops the push silently: no error message.
      if (err.status === 200) return void reply.code(200).send('');
      throw httpError(err.status, err.message);
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
      if (!(err instanceof PushError)) throw err;
      if (err.status === 200) return void reply.code(200).send('');
      void reply
        .code(otlpStatusCode(err.status))
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
