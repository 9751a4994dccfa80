import { LogsvcError } from '@logsvc/errors';
import {
  actorPathHeader,
  frontendLimits,
  mergeMetadataAnswers,
  parseActorPath,
  splitMetadataJob,
  type JobQueue,
} from '@logsvc/frontend';
import { nowNs } from '@logsvc/query-codec';
import { mapConcurrent } from '@logsvc/storage';
import type { ReadJob } from '@logsvc/query-codec';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Config, Overrides } from '@logsvc/config';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { sendPlainError } from '../../http/exception-filter';
import { PlainHttpError } from '../../http/plain-error';
import { requestTenants } from '../../http/tenancy';
import type { Component } from '../../targets';
import { COMPONENTS, CONFIG, JOB_QUEUE, LOGGER, OVERRIDES } from '../../tokens';
import { queryRouting } from '../cluster/query-routing';
import { clientSignal } from '../querier/client-signal';
import { isLegacy } from '../querier/read-reply';
import { type ForwardedRoute, matchForwardedRoute } from './forwarded-routes';

/**
 * The query frontend of a cluster: the read endpoints a querier serves besides queries
 * (FORWARDED_ROUTES) are each sent as a typed ReadJob (route, tenants, parameters, path name)
 * through the JobQueue to a querier worker, which parses and answers it as its own route
 * would; the answer (status, content type, body) is written back unchanged. A Fastify
 * `onRequest` hook, so that it takes the request before this process's own querier routes
 * would, and answers even in a process without them; a form body is read raw, before any
 * parser. Outside a cluster it installs nothing.
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
      if (request.method !== 'GET' && request.method !== 'POST') return;
      const route = matchForwardedRoute(request.url.split('?')[0] ?? '');
      if (route === undefined) return;
      await this.forward(request, reply, route);
      return reply;
    });
  }

  private async forward(
    request: FastifyRequest,
    reply: FastifyReply,
    { route, name }: ForwardedRoute,
  ): Promise<void> {
    const fail = (status: number, message: string): void =>
      sendPlainError(reply, status, route === 'patterns' ? `${message}\n` : message);
    try {
      // As the querier's routes: patterns take one tenant, the others `a|b` when allowed.
      const tenants = requestTenants(request, route !== 'patterns');
      const actorPath = parseActorPath(
        actorPathHeader((name) => {
          const v = request.headers[name.toLowerCase()];
          return Array.isArray(v) ? v.join(',') : v;
        }),
      );
      const job: ReadJob = {
        kind: route,
        tenants,
        params: await requestParams(request),
        name,
        legacy: isLegacy(request),
      };
      const signal = clientSignal(reply);
      const submit = (j: ReadJob) => this.queue.submit(tenants.join('|'), actorPath, j, signal);
      // split_metadata_queries_by_interval: labels, values and series as jobs per split.
      const limits = frontendLimits(this.overrides, tenants);
      const splits = splitMetadataJob(job, limits, nowNs());
      const answer =
        splits === undefined
          ? await submit(job)
          : mergeMetadataAnswers(
              job,
              await mapConcurrent(splits, limits.maxQueryParallelism, submit),
            );
      if (answer.status >= 400) {
        return sendPlainError(reply, answer.status, answer.body.toString('utf8'));
      }
      void reply.code(answer.status).header('content-type', answer.contentType).send(answer.body);
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

const FORM_TYPE = 'application/x-www-form-urlencoded';

/** A request's parameters in Go's `r.Form` order: a form body's values, then the URL's. */
async function requestParams(request: FastifyRequest): Promise<[string, string][]> {
  const params: [string, string][] = [];
  const type = (request.headers['content-type'] ?? '').toLowerCase();
  if (request.method === 'POST') {
    const chunks: Buffer[] = [];
    for await (const chunk of request.raw) chunks.push(chunk as Buffer);
    if (type.split(';')[0]?.trim() === FORM_TYPE) {
      params.push(...new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    }
  }
  const at = request.url.indexOf('?');
  if (at >= 0) params.push(...new URLSearchParams(request.url.slice(at + 1)));
  return params;
}
