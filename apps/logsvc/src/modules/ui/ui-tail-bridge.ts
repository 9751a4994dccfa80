import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  ORG_ID_HEADER,
  ROUTES,
  UI_TAIL_SOCKET_PATH,
  UI_TAIL_TICKET_PATH,
  toLokiPath,
} from '@logsvc/api';
import type { Config } from '@logsvc/config';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { writeHttpError } from '../../http/raw-http-error';
import { upgradeRouterOf } from '../../http/upgrade-router';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { CONFIG } from '../../tokens';
import { TailTickets } from './tail-tickets';

const TAIL_PATH = toLokiPath(ROUTES.tail.path);
const HEADER = ORG_ID_HEADER.toLowerCase();

/**
 * `/ui/api/tail?ticket=<ticket>&query=…`: the log explorer's live tail. A browser cannot put
 * X-Scope-OrgID on a WebSocket, so it first gets a one-time ticket with a normal request that
 * carries the header (`POST /ui/api/tail/ticket`); the upgrade spends it and is handed to the
 * tail endpoint (`/loki/api/v1/tail`) with the ticket's tenant as the header, and from there on
 * it is that endpoint's (with all its checks). No parameter names the tenant: a `tenant` one is
 * dropped, and a header on the upgrade itself must name the ticket's tenant. Upgrades from
 * another origin are refused (403), so a page of another site cannot tail in the user's browser.
 * The `ui-tail-bridge` service: stopping (before the tail endpoint it hands upgrades to) gives
 * its path back to the upgrade router.
 */
@Injectable()
export class UiTailBridge implements LifecycleService, OnModuleInit {
  readonly serviceName = 'ui-tail-bridge';
  private release: (() => void) | undefined;

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(TailTickets) private readonly tickets: TailTickets,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  onModuleInit(): void {
    const router = upgradeRouterOf(this.adapterHost.httpAdapter.getHttpServer() as Server);
    this.release = router.claim([UI_TAIL_SOCKET_PATH], (request, socket, head) =>
      this.bridge(request, socket, head, router.dispatch),
    );
    this.registry.register(this);
  }

  async stopping(): Promise<void> {
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
    const ticket = url.searchParams.get('ticket');
    url.searchParams.delete('ticket');
    url.searchParams.delete('tenant');
    if (ticket === null || ticket === '') {
      writeHttpError(
        socket,
        401,
        `no tail ticket: POST ${UI_TAIL_TICKET_PATH} with ${ORG_ID_HEADER} first\n`,
      );
      return;
    }
    const tenant = this.tickets.spend(ticket);
    if (tenant === undefined) {
      writeHttpError(socket, 401, 'invalid or expired tail ticket\n');
      return;
    }
    const header = request.headers[HEADER];
    if (this.config.auth_enabled && header !== undefined && header !== tenant) {
      writeHttpError(socket, 403, 'the tail ticket was issued for another tenant\n');
      return;
    }
    request.headers[HEADER] = tenant;
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
