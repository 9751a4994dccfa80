import type { Config, Overrides } from '@logsvc/config';
import {
  answerForwardedRead,
  type ForwardedRoute,
  type JobQueue,
  matchForwardedRoute,
  type ReadForwarding,
} from '@logsvc/frontend';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { sendPlainError } from '../../http/exception-filter';
import { failureLogger } from '../../http/failure-logger';
import { tenancyOf } from '../../http/tenancy';
import type { Component } from '../../targets';
import { COMPONENTS, CONFIG, JOB_QUEUE, LOGGER, OVERRIDES } from '../../tokens';
import { queryRouting } from '../cluster/query-routing';
import { clientSignal } from '../querier/client-signal';

/** The frontend's read forwarding over its queue; failures logged as the query frontend's. */
function readForwarding(
  config: Config,
  queue: JobQueue,
  overrides: Overrides,
  logger: Logger,
): ReadForwarding {
  const onFailure = failureLogger(
    logger.child({ component: 'query-frontend' }),
    'query through the frontend failed',
  );
  return { queue, overrides, tenancy: tenancyOf(config), onFailure };
}

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
  /** How read requests reach querier workers (also the frontend's `httpgrpc.HTTP/Handle`). */
  readonly reads: ReadForwarding;

  constructor(
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(COMPONENTS) private readonly components: readonly Component[],
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(OVERRIDES) private readonly overrides: Overrides,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.reads = readForwarding(config, queue, overrides, logger);
  }

  /** Whether reads go to querier workers here (a cluster's frontend with a queue). */
  get active(): boolean {
    return queryRouting(this.config, this.components).frontendQueue !== 'none';
  }

  onModuleInit(): void {
    if (!this.active) return;
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
    route: ForwardedRoute,
  ): Promise<void> {
    const chunks: Buffer[] = [];
    if (request.method === 'POST') {
      for await (const chunk of request.raw) chunks.push(chunk as Buffer);
    }
    const answer = await answerForwardedRead(this.reads, {
      route,
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: Buffer.concat(chunks),
      signal: clientSignal(reply),
    });
    if (answer.status >= 400) {
      return sendPlainError(reply, answer.status, answer.body.toString('utf8'));
    }
    void reply.code(answer.status).header('content-type', answer.contentType).send(answer.body);
  }
}
