// Helpers of the component tests: the app's providers and a fake of logsvc's HTTP API.
import type { ClusterOverview, InstanceOverview, UiFeatures } from '@logsvc/api/browser';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type RenderResult, act, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { beforeEach, vi } from 'vitest';
import { TenantProvider } from './api/tenant';

export interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

type Handler = (call: Call) => Response | Promise<Response>;

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
export const text = (body: string, status = 200) => new Response(body, { status });

/**
 * Replaces fetch: each request goes to the first handler whose key (`METHOD /path`, the path
 * without its query) matches, else 404. Returns the calls made, in order.
 */
export function fakeApi(handlers: Record<string, Handler>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const call: Call = {
      method: init.method ?? 'GET',
      url: input,
      headers: (init.headers ?? {}) as Record<string, string>,
      ...(typeof init.body === 'string' ? { body: init.body } : {}),
    };
    calls.push(call);
    const handler = handlers[`${call.method} ${input.split('?')[0]}`];
    return handler ? handler(call) : text('404 page not found\n', 404);
  });
  return calls;
}

export function renderPage(page: ReactElement, tenant = 'team-a'): RenderResult {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <TenantProvider initial={tenant}>{page}</TenantProvider>
    </QueryClientProvider>,
  );
}

/** The query parameters of a call. */
export function paramsOf(call: Call): URLSearchParams {
  return new URL(call.url, 'http://x').searchParams;
}

/** One instance of the cluster overview, reporting and ready, with `over` changed. */
export function instanceOverview(over: Partial<InstanceOverview> = {}): InstanceOverview {
  const id = over.id ?? 'logsvc-1';
  return {
    id,
    self: false,
    reported: true,
    http_url: `http://${id}:3100`,
    targets: ['all'],
    version: '0.1.0',
    started_at: '2026-01-01T00:00:00Z',
    ready: true,
    ready_message: 'ready',
    services: [],
    updated_at: '2026-01-01T00:00:00Z',
    rings: [],
    ...over,
  };
}

/** The `/ui/api/features` answer of a single binary, with `over` changed. */
export function uiFeatures(over: Partial<UiFeatures> = {}): UiFeatures {
  return {
    rings: ['ingester'],
    logservice: false,
    config_file: false,
    deletes: false,
    rules: true,
    queries: true,
    auth_enabled: true,
    multi_tenant_queries: false,
    ...over,
  };
}

/** The sockets the page opened; a test plays the server on them. */
export class FakeSocket {
  static opened: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.opened.push(this);
  }
  close(): void {}
  send(data: ClusterOverview): void {
    act(() => this.onmessage?.({ data: JSON.stringify({ event: 'overview', data }) }));
  }
}

/**
 * For a describe block: each test sees WebSocket as FakeSocket with none opened yet (the setup
 * file puts the real one back after it).
 */
export function useFakeSockets(): void {
  beforeEach(() => {
    FakeSocket.opened = [];
    vi.stubGlobal('WebSocket', FakeSocket);
  });
}
