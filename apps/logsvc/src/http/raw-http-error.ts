import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Answers an upgrade request that is refused before the handshake with a plain HTTP error, as
 * Loki's handler does (`Content-Type: text/plain; charset=utf-8`, `X-Content-Type-Options:
 * nosniff`), then closes the connection.
 */
export function writeHttpError(socket: Duplex, status: number, body: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const payload = Buffer.from(body);
  const head =
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
    'Content-Type: text/plain; charset=utf-8\r\n' +
    'X-Content-Type-Options: nosniff\r\n' +
    `Content-Length: ${payload.length}\r\n` +
    'Connection: close\r\n\r\n';
  socket.end(Buffer.concat([Buffer.from(head), payload]));
}
