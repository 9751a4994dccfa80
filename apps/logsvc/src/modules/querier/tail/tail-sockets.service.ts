import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { TenantError, apiPaths, deprecatedApiPaths, resolveTenants } from '@logsvc/api';
import { LogsvcError } from '@logsvc/errors';
import { Querier, type TailFrame } from '@logsvc/querier';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { type WebSocket, WebSocketServer } from 'ws';
import type { LifecycleService } from '../../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../../lifecycle/service-registry';
import { LOGGER } from '../../../tokens';
import {
  wantsCategories,
  legacyTailFrameJson,
  tailFrameJson,
  nowNs,
  type TailParams,
  parseTailParams,
} from '@logsvc/query-codec';
import { writeHttpError } from '../../../http/raw-http-error';
import { upgradeRouterOf } from '../../../http/upgrade-router';
import { WebSocketTailOutput } from './websocket-tail-output';

/** Loki pings every tail socket this often, which also finds dead connections. */
const PING_PERIOD_MS = 1_000;
/** Close code when the server stops (RFC 6455 "going away"). */
const CLOSE_GOING_AWAY = 1001;

const V1_PATHS = new Set(apiPaths('tail'));
const LEGACY_PATHS = new Set(deprecatedApiPaths('tail'));

/**
 * `GET /loki/api/v1/tail` and `/api/prom/tail` as WebSockets on the HTTP port.
 *
 * Why a `ws` server in noServer mode on the Fastify server's upgrade router rather than a Nest
 * gateway (@nestjs/websockets with @nestjs/platform-ws): the gateway does share Fastify's port,
 * but its adapter completes every handshake for its path before any code of ours runs, so a
 * bad query, `delay_for` above 5, several tenants or a missing tenant could not be answered
 * with Loki's plain-text HTTP 400/401 (Loki answers them before upgrading); it also takes one
 * path per gateway class (four here). Here the
 * request is checked first, exactly as Loki's `TailHandler` does, and only then upgraded.
 * Upgrades do not pass through Fastify's hooks, so tenancy is resolved here with the same rules
 * (`resolveTenants` and the server's `auth_enabled` settings).
 *
 * The `tail-sockets` service: it stops before the querier, closing every open tail and refusing
 * new ones (503) from then on.
 */
@Injectable()
export class TailSockets implements LifecycleService, OnModuleInit {
  readonly serviceName = 'tail-sockets';
  private readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  private readonly open = new Set<WebSocket>();
  private stopped = false;

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(Querier) private readonly querier: Querier,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    const server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    // The paths stay claimed while the server lives: after the stop, tails answer 503.
    upgradeRouterOf(server).claim([...V1_PATHS, ...LEGACY_PATHS], this.onUpgrade);
    this.registry.register(this);
  }

  /** Ends every tail (the querier is stopping); new ones are refused from now on. */
  async stopping(): Promise<void> {
    this.stopped = true;
    for (const socket of this.open) socket.close(CLOSE_GOING_AWAY, 'server shutting down');
  }

  /** Open tail sockets. */
  get openSockets(): number {
    return this.open.size;
  }

  /** Bytes written to tail sockets that their clients have not read yet. */
  bufferedBytes(): number {
    let n = 0;
    for (const socket of this.open) n += socket.bufferedAmount;
    return n;
  }

  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    // The upgrade router hands over only the tail paths (any other gets its 404).
    const legacy = LEGACY_PATHS.has(url.pathname);
    if (this.stopped) {
      writeHttpError(socket, 503, 'querier is stopping\n');
      return;
    }
    let tenant: string;
    let params: TailParams;
    try {
      // Loki's order: the org-ID middleware (missing → 401), the parameters, then the tenant.
      const tenancy = this.tenancyOf(request);
      params = parseTailParams((name) => url.searchParams.get(name) ?? undefined, nowNs());
      tenant = tenancy();
    } catch (err) {
      if (err instanceof RefusedUpgrade) {
        writeHttpError(socket, err.status, err.body);
        return;
      }
      if (err instanceof LogsvcError) {
        // Loki's `serverutil.WriteError`: no trailing newline.
        writeHttpError(socket, err.httpStatus, err.message);
        return;
      }
      this.logger.error({ err }, 'tail request failed');
      writeHttpError(socket, 500, 'internal server error\n');
      return;
    }
    // As for queries, the deprecated paths' format has no place for categories.
    const categorize = !legacy && wantsCategories(request.headers);
    this.wss.handleUpgrade(request, socket, head, (ws) =>
      this.run(ws, tenant, params, legacy, categorize),
    );
  };

  /**
   * `X-Scope-OrgID` as the HTTP routes read it, one tenant only. A missing one is refused at
   * once (401, Go's `http.Error` with its newline); any other refusal (400) when the returned
   * function is called, after the parameters are checked.
   */
  private tenancyOf(request: IncomingMessage): () => string {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const settings = fastify.logsvcTenancy;
    const header = request.headers['x-scope-orgid'];
    try {
      const [tenant] = resolveTenants(Array.isArray(header) ? header.join('|') : header, {
        authEnabled: settings.authEnabled,
        allowMultiple: false,
      });
      return () => tenant;
    } catch (err) {
      if (!(err instanceof TenantError)) throw err;
      if (err.kind === 'missing') throw new RefusedUpgrade(401, `${err.message}\n`);
      return () => {
        throw new RefusedUpgrade(400, err.message);
      };
    }
  }

  private run(
    ws: WebSocket,
    tenant: string,
    params: TailParams,
    legacy: boolean,
    categorize: boolean,
  ): void {
    this.open.add(ws);
    const encode: (frame: TailFrame) => string = legacy
      ? legacyTailFrameJson
      : (frame) => tailFrameJson(frame, categorize);
    const output = new WebSocketTailOutput(ws, encode);
    this.logger.info({ tenant, query: params.query }, 'starting to tail logs');
    const tail = this.querier.tail(
      {
        tenant,
        query: params.query,
        startNs: params.startNs,
        limit: params.limit,
        delayForMs: params.delayForSeconds * 1000,
        categorizeLabels: categorize,
      },
      output,
    );
    const ping = setInterval(() => {
      if (ws.readyState === ws.OPEN) ws.ping();
    }, PING_PERIOD_MS);
    const end = (): void => {
      if (!this.open.delete(ws)) return;
      clearInterval(ping);
      tail.close();
      this.logger.info({ tenant, query: params.query }, 'ended tailing logs');
    };
    ws.on('close', end);
    ws.on('error', (err) => {
      this.logger.warn({ err, tenant }, 'tail socket failed');
      end();
      ws.terminate();
    });
    // Clients send nothing Loki reads; their messages are ignored.
  }
}

/** A refusal before the handshake, with its exact status and body. */
class RefusedUpgrade extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(body);
  }
}
