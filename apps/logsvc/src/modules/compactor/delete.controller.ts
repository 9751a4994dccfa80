import { apiPaths } from '@logsvc/api';
import { DeleteRequestError } from '@logsvc/compactor';
import { Controller, Delete, Get, Inject, Post, Put, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { httpError } from '../../http/plain-error';
import { TenantId } from '../../http/tenancy';
import { CompactorService } from './compactor.service';

/** Loki reads the delete API's parameters from the URL only (`r.URL.Query()`). */
function urlParam(request: FastifyRequest, name: string): string | undefined {
  const v = (request.query as Record<string, unknown> | undefined)?.[name];
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  return undefined;
}

/**
 * The log deletion API (Loki's compactor delete handlers): create (POST/PUT), list (GET) and
 * cancel (DELETE) the tenant's delete requests; plus logsvc's progress listing for the admin
 * UI. Errors are `http.Error` texts with Loki's statuses.
 */
@Controller()
export class DeleteController {
  constructor(@Inject(CompactorService) private readonly compactor: CompactorService) {}

  @Put(apiPaths('delete'))
  createPut(
    @TenantId() tenant: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.create(tenant, request, reply);
  }

  @Post(apiPaths('delete'))
  async create(
    @TenantId() tenant: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.answer(reply, async () => {
      const param = (name: string) => urlParam(request, name);
      await this.compactor.api.create(tenant, {
        query: param('query'),
        start: param('start'),
        end: param('end'),
        max_interval: param('max_interval'),
      });
      void reply.code(204).send();
    });
  }

  @Get(apiPaths('delete'))
  async list(@TenantId() tenant: string, @Res() reply: FastifyReply): Promise<void> {
    await this.answer(reply, async () => {
      const body = JSON.stringify(await this.compactor.api.list(tenant));
      void reply.code(200).header('content-type', 'application/json').send(`${body}\n`);
    });
  }

  @Delete(apiPaths('delete'))
  async cancel(
    @TenantId() tenant: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.answer(reply, async () => {
      await this.compactor.api.cancel(
        tenant,
        urlParam(request, 'request_id') ?? '',
        urlParam(request, 'force') === 'true',
      );
      void reply.code(204).send();
    });
  }

  @Get(apiPaths('delete_progress'))
  async progress(@TenantId() tenant: string, @Res() reply: FastifyReply): Promise<void> {
    await this.answer(reply, async () => {
      const body = JSON.stringify(await this.compactor.api.progress(tenant));
      void reply.code(200).header('content-type', 'application/json').send(body);
    });
  }

  private async answer(reply: FastifyReply, work: () => Promise<void>): Promise<void> {
    if (!this.compactor.deletesEnabled) throw httpError(404, '404 page not found');
    try {
      await work();
    } catch (err) {
      if (err instanceof DeleteRequestError) throw httpError(err.httpStatus, err.message);
      throw err;
    }
  }
}
