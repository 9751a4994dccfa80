// The query frontend's jobs on the wire: HttpJob / HttpJobResult and the messages of the
// querier loop and of the scheduler's Submit.
import type { HttpJob, HttpJobResult } from '@logsvc/frontend';
import { messageCodec } from './codec';
import type { Int64 } from './messages';

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

export interface WireSchedulerToQuerier {
  readonly jobId: Int64;
  readonly tenant: string;
  readonly actorPath: readonly string[];
  readonly request?: WireHttpRequest | null;
  readonly cancel: boolean;
}

export interface WireQuerierToScheduler {
  readonly querierId: string;
  readonly jobId: Int64;
  readonly response?: WireHttpResponse | null;
}

interface WireJobRequest {
  readonly actorPath: readonly string[];
  readonly request?: WireHttpRequest | null;
}

export const SCHEDULER_TO_QUERIER = messageCodec<WireSchedulerToQuerier>('SchedulerToQuerier');
export const QUERIER_TO_SCHEDULER = messageCodec<WireQuerierToScheduler>('QuerierToScheduler');
const JOB_REQUEST = messageCodec<WireJobRequest>('JobRequest');
const HTTP_REQUEST = messageCodec<WireHttpRequest>('HttpRequest');
const HTTP_RESPONSE = messageCodec<WireHttpResponse>('HttpResponse');
export const NOTIFY_SHUTDOWN = messageCodec<{ querierId: string }>('NotifyShutdownRequest');

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

export function jobToWire(job: HttpJob): WireHttpRequest {
  return { method: job.method, url: job.url, headers: headersToWire(job.headers), body: job.body };
}

export function jobFromWire(request: WireHttpRequest | null | undefined): HttpJob {
  if (!request) throw new Error('no request in the job');
  return {
    method: request.method,
    url: request.url,
    headers: headersFromWire(request.headers),
    body: asBuffer(request.body),
  };
}

export function resultToWire(result: HttpJobResult): WireHttpResponse {
  return { code: result.status, headers: headersToWire(result.headers), body: result.body };
}

export function resultFromWire(response: WireHttpResponse | null | undefined): HttpJobResult {
  if (!response) throw new Error('no response in the answer');
  return {
    status: response.code,
    headers: headersFromWire(response.headers),
    body: asBuffer(response.body),
  };
}

export function encodeJobRequest(actorPath: readonly string[], job: HttpJob): Buffer {
  return JOB_REQUEST.encode({ actorPath: [...actorPath], request: jobToWire(job) });
}

export function decodeJobRequest(bytes: Buffer): { actorPath: string[]; job: HttpJob } {
  const m = JOB_REQUEST.decode(bytes);
  return { actorPath: [...m.actorPath], job: jobFromWire(m.request) };
}

/** A job's answer: Loki's httpgrpc.HTTPResponse. */
export function encodeJobResult(result: HttpJobResult): Buffer {
  return HTTP_RESPONSE.encode(resultToWire(result));
}

export function decodeJobResult(bytes: Buffer): HttpJobResult {
  return resultFromWire(HTTP_RESPONSE.decode(bytes));
}

/** Loki's httpgrpc.HTTPRequest (a header's several values arrive as its last one). */
export function encodeHttpRequest(job: HttpJob): Buffer {
  return HTTP_REQUEST.encode(jobToWire(job));
}

export function decodeHttpRequest(bytes: Buffer): HttpJob {
  return jobFromWire(HTTP_REQUEST.decode(bytes));
}
