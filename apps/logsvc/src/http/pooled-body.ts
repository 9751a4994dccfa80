import type { IncomingMessage } from 'node:http';
import { SlabPool } from '@logsvc/chunk';
import { errorCodes, type FastifyRequest } from 'fastify';

/**
 * Request bodies with a Content-Length are read into pieces of reused slabs: a push body lives
 * for a few milliseconds, and allocating each anew adds to the external memory that makes V8
 * run full collections. Bodies over a quarter slab get a buffer of their own.
 */
const BODY_POOL = new SlabPool({ slabSize: 4 * 1024 * 1024 });

type Done = (err: Error | null, body?: Buffer) => void;

function fail(err: Error & { statusCode?: number }, done: Done): void {
  if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
  done(err);
}

/**
 * A Fastify content-type parser that hands the handler the raw body as one Buffer, with
 * Fastify's own limits and errors (413 over `bodyLimit`, 400 when the length differs from
 * Content-Length). A body from the pool must go back with `releaseBody` once nothing reads it.
 */
export function readBody(request: FastifyRequest, payload: IncomingMessage, done: Done): void {
  const limit = request.routeOptions.bodyLimit ?? Infinity;
  const declared = Number(request.headers['content-length']);
  if (declared > limit) {
    done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    return;
  }
  const pooled = Number.isSafeInteger(declared) && declared >= 0 ? BODY_POOL.take(declared) : null;
  const chunks: Buffer[] = [];
  let received = 0;

  const finish = (err: Error | null, body?: Buffer): void => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onError);
    if (err !== null && pooled !== null) BODY_POOL.release(pooled);
    if (err !== null) fail(err, done);
    else done(null, body);
  };
  const onData = (chunk: Buffer): void => {
    const start = received;
    received += chunk.length;
    if (received > limit) {
      finish(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    if (pooled === null) chunks.push(chunk);
    else if (received <= pooled.length) chunk.copy(pooled, start);
  };
  const onEnd = (): void => {
    if (pooled === null) finish(null, Buffer.concat(chunks, received));
    else if (received !== pooled.length)
      finish(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
    else finish(null, pooled);
  };
  const onError = (err: Error): void => finish(err);

  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.resume();
}

/** Gives a body read by `readBody` back to the pool; other values are ignored. */
export function releaseBody(body: unknown): void {
  if (Buffer.isBuffer(body)) BODY_POOL.release(body);
}
