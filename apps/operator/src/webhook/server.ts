import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { reviewLogService, type ReviewOutcome } from './review';
import { closeServer, listen } from '../observe/listen';

export const WEBHOOK_PATH = '/validate-logsvc-io-v1alpha1-logservice';
const MAX_BODY = 3 * 1024 * 1024;

export interface WebhookServerOptions {
  readonly cert: string;
  readonly key: string;
  readonly host?: string;
  /** 0: any free port. */
  readonly port: number;
  /** After each decided review (metrics, Events). Must not throw. */
  readonly onReview?: (outcome: ReviewOutcome) => void;
  readonly log?: (message: string) => void;
}

/** The validating admission webhook for LogServices, over HTTPS. */
export class WebhookServer {
  private server?: Server;

  constructor(private readonly options: WebhookServerOptions) {}

  get port(): number {
    return (this.server?.address() as AddressInfo | null)?.port ?? 0;
  }

  get listening(): boolean {
    return this.server?.listening ?? false;
  }

  async start(): Promise<void> {
    const server = createServer({ cert: this.options.cert, key: this.options.key }, (req, res) => {
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url?.split('?')[0] !== WEBHOOK_PATH) {
        reply(404, { message: `no webhook at ${req.method} ${req.url}` });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY) req.destroy();
        else chunks.push(c);
      });
      req.on('end', () => {
        let outcome: ReviewOutcome;
        try {
          outcome = reviewLogService(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (err) {
          reply(400, { message: `bad AdmissionReview: ${(err as Error).message}` });
          return;
        }
        reply(200, outcome.review);
        this.options.onReview?.(outcome);
      });
    });
    server.on('clientError', (_err, socket) => socket.destroy());
    await listen(server, this.options.port, this.options.host);
    this.server = server;
    this.options.log?.(`admission webhook on https://:${this.port}${WEBHOOK_PATH}`);
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    await closeServer(server);
  }
}
