// `frontend.compress_responses`: the query frontend's answers gzip-compressed when the client
// accepts gzip, as Loki wraps its frontend handler in gziphandler (answers of at least its
// default 1400 bytes; smaller ones go as they are).
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { isFrontendPath } from './frontend-paths';

const gzipAsync = promisify(gzip);

/** gziphandler's DefaultMinSize. */
export const MIN_COMPRESSED_BYTES = 1400;

function acceptsGzip(header: string | string[] | undefined): boolean {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  return text.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

export function installResponseCompression(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (!isFrontendPath(request.url)) return payload;
    reply.header('vary', 'Accept-Encoding');
    if (reply.getHeader('content-encoding') !== undefined) return payload;
    if (!acceptsGzip(request.headers['accept-encoding'])) return payload;
    const body =
      typeof payload === 'string'
        ? Buffer.from(payload)
        : Buffer.isBuffer(payload)
          ? payload
          : undefined;
    if (body === undefined || body.length < MIN_COMPRESSED_BYTES) return payload;
    reply.header('content-encoding', 'gzip');
    reply.removeHeader('content-length');
    return gzipAsync(body);
  });
}
