import {
  type ClusterOverview,
  INSTANCE_PROXY_PATHS,
  INSTANCE_PROXY_PREFIX,
  OVERVIEW_PATH,
} from '@logsvc/api';
import type { Config } from '@logsvc/config';
import { LogsvcError } from '@logsvc/errors';
import { All, Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from 'pino';
import { lokiErrorBody, sendPlainError } from '../../http/exception-filter';
import {
  type LocalEndpoint,
  type LocalEndpointSource,
  LocalEndpoints,
} from '../../http/local-endpoints';
import { httpError } from '../../http/plain-error';
import { CONFIG, LOGGER } from '../../tokens';
import { clientSignal } from '../querier/client-signal';
import { InstanceDirectory } from '../cluster/instance-directory';
import { OverviewService } from './overview.service';

/** Request headers passed on to the instance. */
const FORWARDED_HEADERS = [
  'accept',
  'content-type',
  'x-scope-orgid',
  // Explore asks for structured metadata as its own category (`categorize-labels`).
  'x-loki-response-encoding-flags',
] as const;
/** Methods that only read an instance; the others are actions. */
const READ_METHODS = new Set(['GET', 'HEAD']);
/** How long a proxied request may take (a flush of a big ingester takes a while). */
const PROXY_TIMEOUT_MS = 60_000;

/**
 * `GET /ui/api/overview` (the overview the WebSocket sends, once) and the per-instance proxy
 * `/ui/api/instances/<id>/<path>`: the admin UI reads and changes any instance (its config, log
 * level, flush, prepare_shutdown) through the process that served it, as the browser may not
 * reach the others. Only INSTANCE_PROXY_PATHS are forwarded, only to reporting instances, with
 * the query string and no body (every parameter of those endpoints may be a query parameter).
 * Actions (any method but GET and HEAD) on another process need `ui.cluster_actions`. This
 * process's own endpoints are called in-process: the functions their routes answer with
 * (`@LocalEndpoints()` controllers).
 */
@Controller()
export class InstancesController {
  private endpoints: ReadonlyMap<string, LocalEndpoint> | undefined;

  constructor(
    @Inject(OverviewService) private readonly overview: OverviewService,
    @Inject(InstanceDirectory) private readonly directory: InstanceDirectory,
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Get(OVERVIEW_PATH)
  current(): ClusterOverview {
    return this.overview.overview();
  }

  @All(`${INSTANCE_PROXY_PREFIX}/:id/*`)
  async proxy(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const [pathname, query = ''] = (request.url ?? '').split('?', 2);
    const rest = pathname.slice(INSTANCE_PROXY_PREFIX.length + 1);
    const slash = rest.indexOf('/');
    const id = decodeURIComponent(rest.slice(0, slash));
    const path = rest.slice(slash);
    if (!(INSTANCE_PROXY_PATHS as readonly string[]).includes(path))
      throw httpError(404, `the admin UI does not forward ${path}`);
    const url = `${path}${query === '' ? '' : `?${query}`}`;
    const headers: Record<string, string> & IncomingHttpHeaders = {};
    for (const name of FORWARDED_HEADERS) {
      const v = request.headers[name];
      if (typeof v === 'string') headers[name] = v;
    }
    if (id === this.directory.instanceId) {
      return this.local(request.method, path, query, headers, reply);
    }
    if (!READ_METHODS.has(request.method) && !this.config.ui.cluster_actions) {
      throw httpError(
        403,
        `the admin UI does not change other processes: ${request.method} ${path} on instance ${id} needs ui.cluster_actions: true`,
      );
    }
    const base = this.directory.httpUrlOf(id);
    if (!base) throw httpError(404, `no reporting instance ${id}`);
    let res: Response;
    try {
      res = await fetch(base + url, {
        method: request.method,
        headers,
        signal: AbortSignal.timeout(PROXY_TIMEOUT_MS),
      });
    } catch (err) {
      throw httpError(502, `instance ${id} at ${base} did not answer: ${(err as Error).message}`);
    }
    const type = res.headers.get('content-type');
    if (type) void reply.header('content-type', type);
    void reply.code(res.status).send(Buffer.from(await res.arrayBuffer()));
  }

  /** The process's own endpoint at `path`, called in-process; 404 where no route serves it. */
  private async local(
    method: string,
    path: string,
    query: string,
    headers: IncomingHttpHeaders,
    reply: FastifyReply,
  ): Promise<void> {
    const endpoint = this.localEndpoints().get(path);
    const head = method === 'HEAD';
    const call = endpoint?.[(head ? 'GET' : method) as keyof LocalEndpoint];
    if (call === undefined) throw httpError(404, '404 page not found');
    const request = {
      method,
      query: new URLSearchParams(query),
      headers,
      signal: clientSignal(reply),
    };
    try {
      const answer = await call(request);
      if (answer.contentType !== undefined) void reply.header('content-type', answer.contentType);
      void reply.code(answer.status).send(head ? '' : answer.body);
    } catch (err) {
      if (!(err instanceof LogsvcError)) throw err;
      if (err.httpStatus >= 500) this.logger.warn({ err, path }, 'request failed');
      sendPlainError(reply, err.httpStatus, lokiErrorBody(path, err.message));
    }
  }

  private localEndpoints(): ReadonlyMap<string, LocalEndpoint> {
    this.endpoints ??= new Map(
      this.discovery
        .getControllers({ metadataKey: LocalEndpoints.KEY })
        .flatMap((w) => Object.entries((w.instance as LocalEndpointSource).localEndpoints())),
    );
    return this.endpoints;
  }
}
