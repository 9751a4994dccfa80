import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OperatorMetrics } from './metrics';
import { closeServer, listen } from './listen';

export interface ProbeServerOptions {
  readonly metrics: OperatorMetrics;
  /** Why the operator is not ready, or undefined when it is. */
  readonly notReady: () => string | undefined;
  readonly host?: string;
  /** 0: any free port. */
  readonly port: number;
}

/** `/metrics` (Prometheus text), `/healthz` (the process answers) and `/readyz`. */
export class ProbeServer {
  private server?: Server;

  constructor(private readonly options: ProbeServerOptions) {}

  get port(): number {
    return (this.server?.address() as AddressInfo | null)?.port ?? 0;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const path = req.url?.split('?')[0];
      const text = (status: number, body: string, type = 'text/plain; charset=utf-8') => {
        res.writeHead(status, { 'Content-Type': type });
        res.end(body);
      };
      if (req.method !== 'GET' && req.method !== 'HEAD') return text(405, 'method not allowed\n');
      if (path === '/healthz') return text(200, 'ok\n');
      if (path === '/readyz') {
        const why = this.options.notReady();
        return why === undefined ? text(200, 'ok\n') : text(503, `not ready: ${why}\n`);
      }
      if (path === '/metrics') {
        this.options.metrics.text().then(
          (body) => text(200, body, this.options.metrics.registry.contentType),
          (err: unknown) => text(500, `${(err as Error).message}\n`),
        );
        return;
      }
      text(404, 'not found\n');
    });
    await listen(server, this.options.port, this.options.host);
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    await closeServer(server);
  }
}
