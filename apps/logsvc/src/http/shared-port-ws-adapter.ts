import type { Server } from 'node:http';
import { WsAdapter } from '@nestjs/platform-ws';
import { WebSocketServer } from 'ws';
import { upgradeRouterOf } from './upgrade-router';

/**
 * Nest's `ws` adapter for gateways on the HTTP port, made to share that port: each gateway's
 * path is claimed on the server's upgrade router, so the tail WebSocket and any other upgrade
 * path keep working (the stock adapter destroys upgrades to paths that are not its own).
 * Gateways on a port of their own are left to the stock adapter.
 */
export class SharedPortWsAdapter extends WsAdapter {
  private readonly releases = new Map<WebSocketServer, () => void>();

  override create(
    port: number,
    options: Record<string, unknown> & { path?: string } = {},
  ): WebSocketServer {
    const { path, server: _server, namespace: _namespace, ...wsOptions } = options;
    if (port !== 0 || path === undefined) return super.create(port, options) as WebSocketServer;
    const wss = this.bindErrorHandler(
      new WebSocketServer({ noServer: true, ...wsOptions }),
    ) as WebSocketServer;
    const release = upgradeRouterOf(this.httpServer as Server).claim([path], (req, socket, head) =>
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)),
    );
    this.releases.set(wss, release);
    return wss;
  }

  override async close(server: WebSocketServer): Promise<void> {
    this.releases.get(server)?.();
    this.releases.delete(server);
    await super.close(server);
  }
}
