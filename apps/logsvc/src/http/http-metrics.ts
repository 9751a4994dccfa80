import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The metrics registry of one server, with process metrics and HTTP request metrics. */
export class HttpMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<'method' | 'route' | 'status_code'>;
  readonly duration: Histogram<'method' | 'route' | 'status_code'>;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'logsvc_requests_total',
      help: 'HTTP requests served, by route, method and status code.',
      labelNames: ['method', 'route', 'status_code'],
      registers: [this.registry],
    });
    this.duration = new Histogram({
      name: 'logsvc_request_duration_seconds',
      help: 'Time spent serving HTTP requests.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100],
      registers: [this.registry],
    });
  }
}

/** Loki-style route label: the route template without punctuation (`loki_api_v1_push`). */
export function routeLabel(template: string | undefined): string {
  if (!template) return 'other';
  return (
    template
      .replace(/^\//, '')
      .replace(/[^a-zA-Z0-9]+/g, '_')
      .replace(/_$/, '') || 'root'
  );
}

/** Counts and times every request, and logs it at debug level. */
export function installRequestHooks(
  fastify: FastifyInstance,
  metrics: HttpMetrics,
  logger: Logger,
): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const seconds = reply.elapsedTime / 1000;
    const labels = {
      method: request.method,
      route: routeLabel(request.routeOptions.url),
      status_code: String(reply.statusCode),
    };
    metrics.requests.inc(labels);
    metrics.duration.observe(labels, seconds);
    logger.debug(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        duration_ms: reply.elapsedTime,
      },
      'request',
    );
    done();
  });
}
