import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/** Headers of one connection, not of the request or answer: never carried in a job. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

/** A request's or answer's headers as a job carries them: one string each, lower-case names. */
export function jobHeaders(
  headers: IncomingHttpHeaders | OutgoingHttpHeaders,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (value === undefined || HOP_BY_HOP.has(key)) continue;
    out[key] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}
