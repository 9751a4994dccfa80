import { LogsvcError } from '@logsvc/errors';
import {
  actorPathHeader,
  frontendLimits,
  parseActorPath,
  type HttpJob,
  type JobQueue,
} from '@logsvc/frontend';
import type { RouteName } from '@logsvc/api';
import { mapConcurrent } from '@logsvc/storage';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Config, Overrides } from '@logsvc/config';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { sendPlainError } from '../../http/exception-filter';
import { INTERNAL_JOB_HEADER, INTERNAL_JOB_TOKEN } from '../../http/internal-job';
import { jobHeaders } from '../../http/job-headers';
import { PlainHttpError } from '../../http/plain-error';
import { requestTenants } from '../../http/tenancy';
import type { Component } from '../../targets';
import { COMPONENTS, CONFIG, JOB_QUEUE, LOGGER, OVERRIDES } from '../../tokens';
import { queryRouting } from '../cluster/query-routing';
import { clientSignal } from '../querier/client-signal';
import { nowNs } from '../querier/params/query-params';
import { forwardedRoute } from './forwarded-routes';
import { mergeMetadataAnswers, splitMetadataJob } from './metadata-split-jobs';

/**
 * The query frontend of a cluster: the read endpoints a querier serves besides queries (FORWARDED_ROUTES) are each
 * sent whole, as an HttpJob, through the JobQueue to a querier worker, whose answer (status,
 * headers, body) is written back unchanged. A Fastify `onRequest` hook, so that it takes the
 * request before this process's own querier routes would, and answers even in a process without
 * them; the body is read raw, before any parser. Outside a cluster it installs nothing.
 */
@Injectable()
export class FrontendForwarder implements OnModuleInit {
  private readonly logger: Logger;

  constructor(
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(COMPONENTS) private readonly components: readonly Component[],
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(OVERRIDES) private readonly overrides: Overrides,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'query-frontend' });
  }

  onModuleInit(): void {
    if (queryRouting(this.config, this.components).frontendQueue === 'none') return;
    const fastify = this.adapterHost.httpAdapter.getInstance() as unknown as FastifyInstance;
    fastify.addHook('onRequest', async (request, reply) => {
      if (request.headers[INTERNAL_JOB_HEADER] === INTERNAL_JOB_TOKEN) return;
      if (request.method !== 'GET' && request.method !== 'POST') return;
      const route = forwardedRoute(request.url.split('?')[0] ?? '');
      if (route === undefined) return;
      await this.forward(request, reply, route);
      return reply;
    });
  }

  private async forward(
    request: FastifyRequest,
    reply: FastifyReply,
    route: RouteName,
  ): Promise<void> {
    const newlineAfterError = route === 'patterns';
    const fail = (status: number, message: string): void =>
      sendPlainError(reply, status, newlineAfterError ? `${message}\n` : message);
    try {
      const tenants = requestTenants(request, true);
      const tenant = tenants.join('|');
      const actorPath = parseActorPath(
        actorPathHeader((name) => {
          const v = request.headers[name.toLowerCase()];
          return Array.isArray(v) ? v.join(',') : v;
        }),
      );
      const job: HttpJob = {
        method: request.method,
        url: request.url,
        headers: jobHeaders(request.headers),
        body: await readBody(request),
      };
      const signal = clientSignal(reply);
      const limits = frontendLimits(this.overrides, tenants);
      const splits = splitMetadataJob(route, job, limits, nowNs());
      const result =
        splits === undefined
          ? await this.queue.submit(tenant, actorPath, job, signal)
          : mergeMetadataAnswers(
              route,
              await mapConcurrent(splits, limits.maxQueryParallelism, (s) =>
                this.queue.submit(tenant, actorPath, s, signal),
              ),
            );
      void reply.code(result.status).headers(result.headers).send(result.body);
    } catch (err) {
      if (err instanceof PlainHttpError) return sendPlainError(reply, err.getStatus(), err.body);
      if (err instanceof LogsvcError) {
        if (err.httpStatus >= 500) {
          this.logger.warn({ err, url: request.url }, 'query through the frontend failed');
        }
        return fail(err.httpStatus, err.message);
      }
      this.logger.error({ err, url: request.url }, 'query through the frontend failed');
      fail(500, 'internal server error');
    }
  }
}

async function readBody(request: FastifyRequest): Promise<Buffer> {
  if (request.method === 'GET') return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const chunk of request.raw) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
