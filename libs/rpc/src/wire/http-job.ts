// Loki's httpgrpc on the wire (`HTTP/Handle`): an HTTP request carried whole and its answer,
// what a ruler in `remote` evaluation mode sends a query frontend.
import { messageCodec } from './codec';

/** An HTTP request carried whole (Loki's httpgrpc.HTTPRequest). */
export interface HttpRequestMessage {
  readonly method: string;
  /** Path and query string, e.g. `/loki/api/v1/query?query=...`. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** Its answer (Loki's httpgrpc.HTTPResponse). */
export interface HttpResponseMessage {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** Answers httpgrpc requests (a query frontend's entry points). */
export type HttpHandler = (
  tenant: string,
  request: HttpRequestMessage,
  signal: AbortSignal,
) => Promise<HttpResponseMessage>;

interface WireHeader {
  readonly key: string;
  readonly value: string;
}

interface WireHttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: readonly WireHeader[];
  readonly body: Uint8Array;
}

interface WireHttpResponse {
  readonly code: number;
  readonly headers: readonly WireHeader[];
  readonly body: Uint8Array;
}

const HTTP_REQUEST = messageCodec<WireHttpRequest>('HttpRequest');
const HTTP_RESPONSE = messageCodec<WireHttpResponse>('HttpResponse');

function headersToWire(headers: Readonly<Record<string, string>>): WireHeader[] {
  return Object.entries(headers).map(([key, value]) => ({ key, value }));
}

function headersFromWire(headers: readonly WireHeader[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of headers) out[h.key] = h.key in out ? `${out[h.key]}, ${h.value}` : h.value;
  return out;
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}

function requestToWire(job: HttpRequestMessage): WireHttpRequest {
  return { method: job.method, url: job.url, headers: headersToWire(job.headers), body: job.body };
}

function requestFromWire(request: WireHttpRequest | null | undefined): HttpRequestMessage {
  if (!request) throw new Error('no request in the job');
  return {
    method: request.method,
    url: request.url,
    headers: headersFromWire(request.headers),
    body: asBuffer(request.body),
  };
}

function responseToWire(result: HttpResponseMessage): WireHttpResponse {
  return { code: result.status, headers: headersToWire(result.headers), body: result.body };
}

function responseFromWire(response: WireHttpResponse | null | undefined): HttpResponseMessage {
  if (!response) throw new Error('no response in the answer');
  return {
    status: response.code,
    headers: headersFromWire(response.headers),
    body: asBuffer(response.body),
  };
}

/** Loki's httpgrpc.HTTPResponse. */
export function encodeHttpResponse(result: HttpResponseMessage): Buffer {
  return HTTP_RESPONSE.encode(responseToWire(result));
}

export function decodeHttpResponse(bytes: Buffer): HttpResponseMessage {
  return responseFromWire(HTTP_RESPONSE.decode(bytes));
}

/** Loki's httpgrpc.HTTPRequest (a header's several values arrive as its last one). */
export function encodeHttpRequest(job: HttpRequestMessage): Buffer {
  return HTTP_REQUEST.encode(requestToWire(job));
}

export function decodeHttpRequest(bytes: Buffer): HttpRequestMessage {
  return requestFromWire(HTTP_REQUEST.decode(bytes));
}
