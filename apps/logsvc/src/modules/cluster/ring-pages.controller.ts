import { type RouteName, apiPaths } from '@logsvc/api';
import {
  type RingDesc,
  decodeRing,
  forgetInstance,
  renderRingPage,
  ringStatus,
} from '@logsvc/ring';
import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { httpError } from '../../http/plain-error';
import { paramValue } from '../../http/params';
import type { Component } from '../../targets';
import { COMPONENTS } from '../../tokens';
import type { RingName } from './ring-names';
import { RingsService } from './rings.service';

interface RingPage {
  readonly ring: RingName;
  readonly route: RouteName;
  readonly title: string;
  /**
   * Served only by a process running this component (else 404), as Loki registers the page
   * with the component: `/pattern/ring` with the pattern ingester, although distributors and
   * queriers read that ring too.
   */
  readonly onlyWith?: Component;
}

const PAGES: readonly RingPage[] = [
  { ring: 'ingester', route: 'ring', title: 'Ingester ring' },
  { ring: 'distributor', route: 'distributor_ring', title: 'Distributor ring' },
  { ring: 'index-gateway', route: 'indexgateway_ring', title: 'Index gateway ring' },
  { ring: 'compactor', route: 'compactor_ring', title: 'Compactor ring' },
  { ring: 'ruler', route: 'ruler_ring', title: 'Ruler ring' },
  // Present with `query_scheduler.use_scheduler_ring`, in schedulers, frontends and queriers.
  { ring: 'scheduler', route: 'scheduler_ring', title: 'Query scheduler ring' },
  {
    ring: 'pattern-ingester',
    route: 'pattern_ring',
    title: 'Pattern ingester ring',
    onlyWith: 'pattern-ingester',
  },
];

const PAGE_PATHS = PAGES.flatMap((p) => apiPaths(p.route));

/**
 * The ring status pages (`/ring`, `/distributor/ring`, `/indexgateway/ring`, `/pattern/ring`,
 * `/scheduler/ring`...):
 * an HTML table of the members, or the same data as JSON with `Accept: application/json`; a
 * POST with `forget=<id>` removes a member from the ring, as Loki's Forget button does.
 */
@Controller()
export class RingPagesController {
  constructor(
    @Inject(RingsService) private readonly rings: RingsService,
    @Inject(COMPONENTS) private readonly components: readonly Component[],
  ) {}

  /** The page of the request's path and its ring's watcher; 404 when this process has none. */
  private pageOf(request: FastifyRequest) {
    const path = request.url.split('?')[0];
    const page = PAGES.find((p) => apiPaths(p.route).includes(path));
    if (!page) throw httpError(404, 'no ring page here');
    const watcher = this.rings.watcher(page.ring);
    if (!watcher || (page.onlyWith && !this.components.includes(page.onlyWith)))
      throw httpError(404, `this process does not use the ${page.ring} ring`);
    return { ...page, watcher };
  }

  @Get(PAGE_PATHS)
  show(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.answer(request, reply);
  }

  @Post(PAGE_PATHS)
  async forget(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const { ring: name } = this.pageOf(request);
    const id = paramValue(request, 'forget');
    if (id === undefined || id === '') return this.answer(request, reply);
    const { key } = this.rings.settings(name);
    const kv = this.rings.kv(name);
    await forgetInstance(kv, key, id);
    // Read back from the store: the watch may not have delivered the change yet.
    this.answer(request, reply, decodeRing(await kv.get(key)));
  }

  private answer(request: FastifyRequest, reply: FastifyReply, current?: RingDesc): void {
    const { ring: name, title, watcher } = this.pageOf(request);
    const settings = this.rings.settings(name);
    const status = ringStatus(current ?? watcher.desc(), {
      now: Date.now(),
      heartbeatTimeoutMs: settings.heartbeatTimeoutMs,
    });
    if ((request.headers.accept ?? '').includes('application/json')) {
      void reply.code(200).header('content-type', 'application/json').send(status);
      return;
    }
    const showTokens = paramValue(request, 'tokens') === 'true';
    void reply
      .code(200)
      .header('content-type', 'text/html; charset=utf-8')
      .send(renderRingPage(status, { title, showTokens }));
  }
}
