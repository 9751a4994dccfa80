import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ClusterOverview,
  INSTANCE_PROXY_PATHS,
  type OverviewMessage,
  type TailTicket,
  RING_PAGES,
  type TenantOverridesView,
  type UiFeatures,
} from '@logsvc/api';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from './harness';
import { openTail, tailUrl } from './tail-client';

/** Resolves with the status of a WebSocket handshake refused before the upgrade. */
function refusedStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('open', () => reject(new Error('the upgrade was accepted')));
    socket.on('error', () => {});
  });
}

describe('the ui component', () => {
  let sut: TestServer;
  let uiDir: string;
  const previousDir = process.env.LOGSVC_UI_DIR;

  beforeAll(async () => {
    uiDir = mkdtempSync(join(tmpdir(), 'logsvc-ui-'));
    mkdirSync(join(uiDir, 'assets'));
    writeFileSync(join(uiDir, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(uiDir, 'assets', 'app-1234.js'), 'console.log(1)');
    process.env.LOGSVC_UI_DIR = uiDir;
    sut = await startTestServer({ config: { auth_enabled: false } });
  });
  afterAll(async () => {
    await sut.close();
    rmSync(uiDir, { recursive: true, force: true });
    if (previousDir === undefined) delete process.env.LOGSVC_UI_DIR;
    else process.env.LOGSVC_UI_DIR = previousDir;
  });

  it('runs as a service of target all', async () => {
    expect(await (await fetch(`${sut.url}/services`)).text()).toContain('ui => Running\n');
  });

  it('serves the built files, index.html for app pages, and refuses paths outside', async () => {
    const asset = await fetch(`${sut.url}/ui/assets/app-1234.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(await asset.text()).toBe('console.log(1)');
    for (const page of ['/ui/', '/ui/rings', '/ui/rules/fake/ns']) {
      const res = await fetch(sut.url + page);
      expect(res.status, page).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
    }
    expect((await fetch(`${sut.url}/ui/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${sut.url}/ui/..%2f..%2fpackage.json`)).status).toBe(404);
    expect((await fetch(`${sut.url}/ui/%E0%A4%A`)).status).toBe(400);
    const root = await fetch(`${sut.url}/ui`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/ui/');
  });

  it('answers the overview with this instance, its services and its rings', async () => {
    const overview = (await (await fetch(`${sut.url}/ui/api/overview`)).json()) as ClusterOverview;
    expect(overview.mode).toBe('single-binary');
    const [self] = overview.instances;
    expect(self.self).toBe(true);
    expect(self.ready).toBe(true);
    expect(self.targets).toEqual([
      'distributor',
      'ingester',
      'query-scheduler',
      'query-frontend',
      'querier',
      'compactor',
      'ruler',
      'ui',
    ]);
    expect(self.services).toContainEqual({ name: 'ingester', state: 'Running' });
    expect(self.http_url).toBe(sut.url);
    expect(self.rings.map((r) => r.ring).sort()).toEqual(['compactor', 'distributor', 'ingester']);
  });

  it('pushes the overview over its WebSocket, and the tail socket still works beside it', async () => {
    const socket = new WebSocket(`${sut.url.replace(/^http/, 'ws')}/ui/ws`);
    const first = await new Promise<OverviewMessage>((resolve, reject) => {
      socket.once('message', (data) => resolve(JSON.parse(String(data)) as OverviewMessage));
      socket.once('error', reject);
    });
    socket.close();
    expect(first.event).toBe('overview');
    expect(first.data.instances[0].services).toContainEqual({ name: 'ui', state: 'Running' });

    const tail = await openTail(tailUrl(sut.url, '/loki/api/v1/tail', { query: '{app="x"}' }));
    expect(tail.socket.readyState).toBe(WebSocket.OPEN);
    tail.socket.close();
    expect(await refusedStatus(`${sut.url.replace(/^http/, 'ws')}/nowhere`)).toBe(404);
  });

  it('bridges a same-origin browser tail with a one-time ticket, and refuses other origins', async () => {
    const ws = sut.url.replace(/^http/, 'ws');
    const ticket = async (): Promise<string> => {
      const res = await fetch(`${sut.url}/ui/api/tail/ticket`, { method: 'POST' });
      expect(res.status).toBe(200);
      const body = (await res.json()) as TailTicket;
      expect(body.expires_in).toBe(30);
      return body.ticket;
    };
    const first = await ticket();
    const query = new URLSearchParams({ ticket: first, query: '{app="x"}' });
    const bridged = await openTail(`${ws}/ui/api/tail?${query}`, { origin: sut.url });
    expect(bridged.socket.readyState).toBe(WebSocket.OPEN);
    bridged.socket.close();
    // Spent: a ticket opens one socket.
    expect(await refusedStatus(`${ws}/ui/api/tail?${query}`)).toBe(401);
    expect(await refusedStatus(`${ws}/ui/api/tail?query=%7Bapp%3D%22x%22%7D`)).toBe(401);
    const bad = new URLSearchParams({ ticket: await ticket(), query: '{app=' });
    expect(await refusedStatus(`${ws}/ui/api/tail?${bad}`)).toBe(400);
    const other = new URLSearchParams({ ticket: await ticket(), query: '{app="x"}' });
    const foreign = new WebSocket(`${ws}/ui/api/tail?${other}`, { origin: 'http://evil.example' });
    const status = await new Promise<number>((resolve) => {
      foreign.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      foreign.on('error', () => {});
    });
    expect(status).toBe(403);
  });

  it('forwards the allowed paths to an instance and refuses the others', async () => {
    const { instances } = (await (
      await fetch(`${sut.url}/ui/api/overview`)
    ).json()) as ClusterOverview;
    const base = `${sut.url}/ui/api/instances/${encodeURIComponent(instances[0].id)}`;
    const changed = await fetch(`${base}/log_level?log_level=debug`, { method: 'POST' });
    expect(changed.status).toBe(200);
    expect(await (await fetch(`${sut.url}/log_level`)).json()).toEqual({
      message: 'Current log level is debug',
    });
    await fetch(`${base}/log_level?log_level=warn`, { method: 'POST' });
    // Explore of a process without a querier queries one through the proxy, metadata and all.
    const queried = await fetch(`${base}/loki/api/v1/query_range?query=%7Bapp%3D%22x%22%7D`, {
      headers: { 'x-loki-response-encoding-flags': 'categorize-labels' },
    });
    expect(queried.status).toBe(200);
    const answer = (await queried.json()) as { data: { encodingFlags?: string[] } };
    expect(answer.data.encodingFlags).toEqual(['categorize-labels']);
    const config = await fetch(`${base}/config?mode=diff`);
    expect(config.status).toBe(200);
    expect(await config.text()).toContain('auth_enabled: false');
    // The node page's live charts read an instance's own metrics.
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^process_resident_memory_bytes /m);
    expect((await fetch(`${base}/loki/api/v1/push`, { method: 'POST' })).status).toBe(404);
    // Outside Kubernetes there is no LogService, through the proxy as directly.
    for (const url of [`${sut.url}/ui/api/logservice`, `${base}/ui/api/logservice`]) {
      const none = await fetch(url);
      expect(none.status, url).toBe(404);
      expect(await none.text()).toContain('not started by the logsvc operator');
    }
    expect((await fetch(`${sut.url}/ui/api/instances/nobody/config`)).status).toBe(404);
  });

  it("answers this process's own paths through the proxy as their routes answer them", async () => {
    const { instances } = (await (
      await fetch(`${sut.url}/ui/api/overview`)
    ).json()) as ClusterOverview;
    const base = `${sut.url}/ui/api/instances/${encodeURIComponent(instances[0].id)}`;
    const asked: [string, string][] = [
      ...INSTANCE_PROXY_PATHS.filter((p) => p !== '/metrics').map((p): [string, string] => [
        'GET',
        p,
      ]),
      ['HEAD', '/services'],
      ['GET', '/config?mode=diff'],
      ['GET', '/loki/api/v1/query?query=sum('],
      ['GET', '/loki/api/v1/query_range?query=%7Bapp%3D%22x%22%7D&step=-1'],
      ['POST', '/log_level?log_level=loud'],
      ['DELETE', '/config'],
    ];
    const answer = async (url: string, method: string) => {
      const res = await fetch(url, { method });
      const body = (await res.text()).replace(/"stats":\{.*\}\}$/s, '');
      return { status: res.status, type: res.headers.get('content-type'), body };
    };
    for (const [method, path] of asked) {
      const direct = await answer(sut.url + path, method);
      expect(await answer(base + path, method), `${method} ${path}`).toEqual(direct);
    }
  });

  it('tells the UI what this process serves, so it asks nothing that answers 404', async () => {
    const features = (await (await fetch(`${sut.url}/ui/api/features`)).json()) as UiFeatures;
    expect(features).toEqual({
      rings: expect.arrayContaining(['ingester', 'distributor', 'compactor']),
      logservice: false,
      config_file: false,
      deletes: false,
      rules: true,
      queries: true,
      auth_enabled: false,
      multi_tenant_queries: false,
    });
    for (const ring of features.rings) {
      const page = RING_PAGES.find((p) => p.ring === ring)!;
      const res = await fetch(sut.url + page.path, { headers: { accept: 'application/json' } });
      expect(res.status, page.path).toBe(200);
    }
    for (const page of RING_PAGES.filter((p) => !features.rings.includes(p.ring))) {
      const res = await fetch(sut.url + page.path, { headers: { accept: 'application/json' } });
      expect(res.status, page.path).toBe(404);
    }
    const file = await fetch(`${sut.url}/ui/api/config-file`);
    expect(file.status).toBe(404);
    expect(await file.text()).toContain('started without -config.file');
    const overrides = (await (
      await fetch(`${sut.url}/ui/api/overrides`)
    ).json()) as TenantOverridesView;
    expect(overrides).toEqual({ runtime_config_file: '', tenants: [] });
    // No rule groups: Loki's API answers 404, the UI's copy an empty map.
    expect((await fetch(`${sut.url}/loki/api/v1/rules`)).status).toBe(404);
    const rules = await fetch(`${sut.url}/ui/api/rules`);
    expect(rules.status).toBe(200);
    expect(await rules.text()).toBe('{}\n');
  });

  it('lists the tenants it knows, for the tenant picker', async () => {
    const push = await fetch(`${sut.url}/loki/api/v1/push`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        streams: [{ stream: { app: 'ui' }, values: [[String(Date.now() * 1e6), 'hello']] }],
      }),
    });
    expect(push.status).toBe(204);
    const body = (await (await fetch(`${sut.url}/ui/api/tenants`)).json()) as {
      tenants: string[];
    };
    expect(body.tenants).toContain('fake');
  });
});

describe('the ui component, with ring IDs that differ from the host name', () => {
  let sut: TestServer;
  let runtimeDir: string;

  beforeAll(async () => {
    runtimeDir = mkdtempSync(join(tmpdir(), 'logsvc-ui-runtime-'));
    const runtime = join(runtimeDir, 'runtime.yaml');
    writeFileSync(runtime, 'overrides:\n  team-a:\n    max_query_series: 7\n');
    sut = await startTestServer({
      config: {
        // The report takes the distributor's ID (its first ring), the ingester has its own.
        distributor: { ring: { instance_id: 'distributor-ring-id' } },
        ingester: { lifecycler: { id: 'ingester-ring-id' } },
        runtime_config: { file: runtime },
      },
    });
  });
  afterAll(async () => {
    await sut.close();
    rmSync(runtimeDir, { recursive: true, force: true });
  });

  it('shows the process once, with the members of every ring under any of its IDs', async () => {
    const overview = (await (await fetch(`${sut.url}/ui/api/overview`)).json()) as ClusterOverview;
    expect(overview.instances.map((i) => [i.id, i.reported])).toEqual([
      ['distributor-ring-id', true],
    ]);
    const [self] = overview.instances;
    expect(self.ring_ids).toEqual(
      expect.arrayContaining(['distributor-ring-id', 'ingester-ring-id']),
    );
    expect(self.rings.map((r) => r.ring).sort()).toEqual(['compactor', 'distributor', 'ingester']);
  });

  it('lists the limits each tenant override changes from the defaults', async () => {
    const overrides = (await (
      await fetch(`${sut.url}/ui/api/overrides`)
    ).json()) as TenantOverridesView;
    const known = (await (await fetch(`${sut.url}/ui/api/tenants`)).json()) as {
      tenants: string[];
    };
    expect(known.tenants).toContain('team-a');
    expect(overrides.tenants).toEqual([
      {
        tenant: 'team-a',
        changes: [{ setting: 'max_query_series', default: 500, value: 7 }],
      },
    ]);
  });
});
