import type { HttpJobResult, JobExecutor } from '@logsvc/frontend';
import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import { INTERNAL_JOB_HEADER, INTERNAL_JOB_TOKEN } from '../../http/internal-job';
import { injectJob } from '../../http/route-executor';

/** Names a job's request so that the hook below finds its answer object. */
const JOB_ID_HEADER = 'x-logsvc-job-id';

/** What a job answers once its caller went away (the answer is dropped anyway). */
const CANCELLED: HttpJobResult = {
  status: 499,
  headers: { 'content-type': 'text/plain; charset=utf-8' },
  body: Buffer.from('context canceled'),
};

/**
 * Runs jobs on this process's own HTTP routes (`fastify.inject`, no socket), as Loki's querier
 * worker hands httpgrpc requests to its HTTP handler: same parsing, tenancy, limits and errors
 * as a direct request. A cancelled job closes its in-process answer, which the querier's
 * handlers take for a client gone away (see clientSignal), so the query stops.
 */
export function injectExecutor(fastify: FastifyInstance): JobExecutor {
  const running = new Map<string, (raw: ServerResponse) => void>();
  let nextId = 1;
  fastify.addHook('onRequest', async (request, reply) => {
    if (request.headers[INTERNAL_JOB_HEADER] !== INTERNAL_JOB_TOKEN) return;
    const id = request.headers[JOB_ID_HEADER];
    if (typeof id === 'string') running.get(id)?.(reply.raw);
  });
  return async (tenant, job, signal) => {
    if (signal.aborted) return CANCELLED;
    const id = String(nextId++);
    let onAbort = (): void => {};
    const aborted = new Promise<HttpJobResult>((resolve) => {
      onAbort = () => resolve(CANCELLED);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    running.set(id, (raw) => {
      signal.addEventListener('abort', () => raw.emit('close'), { once: true });
    });
    try {
      const response = injectJob(fastify, tenant, job, {
        [INTERNAL_JOB_HEADER]: INTERNAL_JOB_TOKEN,
        [JOB_ID_HEADER]: id,
      });
      return await Promise.race([response, aborted]);
    } finally {
      running.delete(id);
      signal.removeEventListener('abort', onAbort);
    }
  };
}
