import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { writeHttpError } from './raw-http-error';

/** Takes over an upgrade request for a path it claimed. */
export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * The one `upgrade` listener of the HTTP server: WebSocket endpoints (the tail, the admin UI's
 * live overview) claim their paths here, and an upgrade to any other path gets a plain 404.
 * Without it each `ws` server would listen on its own and refuse (or destroy) the upgrades
 * meant for the others.
 */
export class UpgradeRouter {
  private readonly routes = new Map<string, UpgradeHandler>();

  constructor(private readonly server: Server) {
    server.on('upgrade', this.onUpgrade);
  }

  /** Routes upgrades to each of `paths` to `handler`; returns a function that releases them. */
  claim(paths: Iterable<string>, handler: UpgradeHandler): () => void {
    const claimed = [...paths];
    for (const path of claimed) {
      if (this.routes.has(path)) throw new Error(`upgrade path ${path} is claimed twice`);
      this.routes.set(path, handler);
    }
    return () => {
      for (const path of claimed) if (this.routes.get(path) === handler) this.routes.delete(path);
    };
  }

  /** Stops listening (the server closes). */
  detach(): void {
    this.server.off('upgrade', this.onUpgrade);
    routers.delete(this.server);
  }

  /** Hands an upgrade to the handler of its path (another handler may rewrite and pass it on). */
  readonly dispatch = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    this.onUpgrade(request, socket, head);
  };

  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    const handler = this.routes.get(pathname);
    if (handler) handler(request, socket, head);
    else writeHttpError(socket, 404, '404 page not found\n');
  };
}

const routers = new WeakMap<Server, UpgradeRouter>();

/** The upgrade router of an HTTP server, made on first use. */
export function upgradeRouterOf(server: Server): UpgradeRouter {
  let router = routers.get(server);
  if (!router) {
    router = new UpgradeRouter(server);
    routers.set(server, router);
  }
  return router;
}
