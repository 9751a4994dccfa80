// Calls to logsvc's own HTTP API, with the tenant of the tenant picker in X-Scope-OrgID.
import { ORG_ID_HEADER } from '@logsvc/api/browser';
import { storedTenant } from './tenant';

/** A non-2xx answer, with the server's message (its plain-text or JSON `error`/`message`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  method?: string;
  /** X-Scope-OrgID; default the tenant of the tenant picker, so every request carries one. */
  tenant?: string;
  params?: Record<string, string | undefined>;
  body?: string;
  contentType?: string;
  accept?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

function messageOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
    if (typeof parsed.error === 'string' && parsed.error !== '') return parsed.error;
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // Plain text.
  }
  return text.trim();
}

export function urlOf(path: string, params?: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) if (v !== undefined) query.set(k, v);
  const qs = query.toString();
  return qs === '' ? path : `${path}?${qs}`;
}

/** The response of a request that succeeded; throws ApiError otherwise. */
export async function request(path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  headers[ORG_ID_HEADER] = options.tenant || storedTenant();
  if (options.contentType) headers['content-type'] = options.contentType;
  if (options.accept) headers.accept = options.accept;
  const res = await fetch(urlOf(path, options.params), {
    method: options.method ?? 'GET',
    headers,
    body: options.body,
    signal: options.signal,
  });
  if (!res.ok) {
    const text = await res.text();
    throw new ApiError(res.status, messageOf(text) || `${res.status} ${res.statusText}`);
  }
  return res;
}

export async function getJson<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await (await request(path, { accept: 'application/json', ...options })).json()) as T;
}

export async function getText(path: string, options: RequestOptions = {}): Promise<string> {
  return (await request(path, options)).text();
}
