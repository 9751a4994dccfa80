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
import type { RingName } from './ring-names';
import { RingsService } from './rings.service';

const PAGES: ReadonlyArray<readonly [RingName, RouteName, string]> = [
  ['ingester', 'ring', 'Ingester ring'],
  ['distributor', 'distributor_ring', 'Distributor ring'],
  ['index-gateway', 'indexgateway_ring', 'Index gateway ring'],
  ['ruler', 'ruler_ring', 'Ruler ring'],
];

function pageOf(request: FastifyRequest): readonly [RingName, RouteName, string] {
  const path = request.url.split('?')[0];
  const found = PAGES.find(([, route]) => apiPaths(route).includes(path));
  if (!found) throw httpError(404, 'no ring page here');
  return found;
}

/**
 * The ring status pages (`/ring`, `/distributor/ring`, `/indexgateway/ring`): an HTML table of
 * the members, or the same data as JSON with `Accept: application/json`; a POST with
 * `forget=<id>` removes a member from the ring, as Loki's Forget button does.
 */
@Controller()
export class RingPagesController {
  constructor(@Inject(RingsService) private readonly rings: RingsService) {}

  @Get([...PAGES.flatMap(([, route]) => apiPaths(route))])
  show(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.answer(request, reply);
  }

  @Post([...PAGES.flatMap(([, route]) => apiPaths(route))])
  async forget(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const [name] = pageOf(request);
    const id = paramValue(request, 'forget');
    if (id === undefined || id === '') return this.answer(request, reply);
    if (!this.rings.watcher(name))
      throw httpError(404, `this process does not use the ${name} ring`);
    const { key } = this.rings.settings(name);
    const kv = this.rings.kv(name);
    await forgetInstance(kv, key, id);
    // Read back from the store: the watch may not have delivered the change yet.
    this.answer(request, reply, decodeRing(await kv.get(key)));
  }

  private answer(request: FastifyRequest, reply: FastifyReply, current?: RingDesc): void {
    const [name, , title] = pageOf(request);
    const watcher = this.rings.watcher(name);
    if (!watcher) throw httpError(404, `this process does not use the ${name} ring`);
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
