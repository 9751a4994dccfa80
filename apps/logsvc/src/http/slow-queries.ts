// `frontend.log_queries_longer_than`: the query frontend logs each request that took longer,
// as Loki's frontend handler does (`slow query detected`, with the request's parameters).
import { goDurationString } from '@logsvc/gocompat';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { isFrontendPath } from './frontend-paths';

function params(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (value === null || typeof value !== 'object') return out;
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string') out[`param_${key}`] = v;
    else if (Array.isArray(v)) out[`param_${key}`] = v.join(',');
  }
  return out;
}

export function installSlowQueryLog(
  fastify: FastifyInstance,
  logger: Logger,
  thresholdMs: number,
): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    if (reply.elapsedTime > thresholdMs && isFrontendPath(request.url)) {
      logger.info(
        {
          method: request.method,
          host: request.headers.host,
          path: request.url.split('?')[0],
          time_taken: goDurationString(BigInt(Math.round(reply.elapsedTime * 1e6))),
          ...params(request.body),
          ...params(request.query),
        },
        'slow query detected',
      );
    }
    done();
  });
}
