import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ROUTES, UI_TAIL_SOCKET_PATH, toLokiPath } from '@logsvc/api';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { writeHttpError } from '../../http/raw-http-error';
import { upgradeRouterOf } from '../../http/upgrade-router';

const TAIL_PATH = toLokiPath(ROUTES.tail.path);

/**
 * `/ui/api/tail?tenant=<id>&query=…`: the log explorer's live tail. A browser cannot put
 * X-Scope-OrgID on a WebSocket, so the tenant comes as a parameter and the upgrade is handed to
 * the tail endpoint (`/loki/api/v1/tail`) with the header set, and from there on it is that
 * endpoint's (with all its checks). Upgrades from another origin are refused (403), so a page
 * of another site cannot tail in the user's browser.
 */
@Injectable()
export class UiTailBridge implements OnModuleInit, OnModuleDestroy {
  private release: (() => void) | undefined;

  constructor(@Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const router = upgradeRouterOf(this.adapterHost.httpAdapter.getHttpServer() as Server);
    this.release = router.claim([UI_TAIL_SOCKET_PATH], (request, socket, head) =>
      this.bridge(request, socket, head, router.dispatch),
    );
  }

  onModuleDestroy(): void {
    this.release?.();
  }

  private bridge(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    dispatch: (request: IncomingMessage, socket: Duplex, head: Buffer) => void,
  ): void {
    const origin = request.headers.origin;
    if (origin !== undefined && sameHost(origin, request.headers.host) === false) {
      writeHttpError(socket, 403, 'cross-origin tail refused\n');
      return;
    }
    const url = new URL(request.url ?? '/', 'http://localhost');
    const tenant = url.searchParams.get('tenant');
    url.searchParams.delete('tenant');
    if (tenant) request.headers['x-scope-orgid'] = tenant;
    request.url = `${TAIL_PATH}${url.search}`;
    dispatch(request, socket, head);
  }
}

function sameHost(origin: string, host: string | undefined): boolean {
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
