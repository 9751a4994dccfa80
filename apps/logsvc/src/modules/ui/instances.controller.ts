import {
  type ClusterOverview,
  INSTANCE_PROXY_PATHS,
  INSTANCE_PROXY_PREFIX,
  OVERVIEW_PATH,
} from '@logsvc/api';
import type { Config } from '@logsvc/config';
import { All, Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { httpError } from '../../http/plain-error';
import { CONFIG } from '../../tokens';
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
 * Actions (any method but GET and HEAD) on another process need `ui.cluster_actions`.
 */
@Controller()
export class InstancesController {
  constructor(
    @Inject(OverviewService) private readonly overview: OverviewService,
    @Inject(InstanceDirectory) private readonly directory: InstanceDirectory,
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(CONFIG) private readonly config: Config,
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
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) {
      const v = request.headers[name];
      if (typeof v === 'string') headers[name] = v;
    }
    if (id === this.directory.instanceId) {
      const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
      const res = await fastify.inject({
        method: request.method as 'GET',
        url,
        headers,
      });
      const type = res.headers['content-type'];
      if (typeof type === 'string') void reply.header('content-type', type);
      void reply.code(res.statusCode).send(res.rawPayload);
      return;
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
}
