import type { Socket } from 'node:net';

/** Go's net/http limit on request headers (and so on URLs), which Loki keeps: 1 MiB. */
export const MAX_HEADER_BYTES = 1 << 20;

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Request Entity Too Large',
  431: 'Request Header Fields Too Large',
};

/**
 * Answers a request Node could not parse (headers over the limit, malformed HTTP) the way
 * Go's server does, in plain text: `431 Request Header Fields Too Large`.
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return;
  const status =
    err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = `${status} ${REASONS[status]}`;
  socket.end(
    `HTTP/1.1 ${body}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Connection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
