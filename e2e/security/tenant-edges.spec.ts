import type { ClusterOverview, TailTicket } from '@logsvc/api';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtcdCluster, type Member } from '../support/cluster';
import { nowNs, pushOk } from '../support/loki-api';
import { eventually } from '../support/server';

// Issue 43, finding 3: the tenant of every request is X-Scope-OrgID's, whatever a parameter or
// a cookie says, and the admin UI of one process does not change the others unless allowed.

const ATTACKER = 'attacker';
const VICTIM = 'victim';
/** Only the victim's data holds these; no answer to the attacker may contain them. */
const SECRETS = ['secret-of-victim', 'victim_only_label'];
/** Every way a request could try to name another tenant than its header's. */
const FOREIGN_PARAMS: Record<string, string> = {
  tenant: VICTIM,
  tenant_id: VICTIM,
  tenantId: VICTIM,
  orgId: VICTIM,
  org_id: VICTIM,
  orgid: VICTIM,
  'X-Scope-OrgID': VICTIM,
  'x-scope-orgid': VICTIM,
  __tenant_id__: VICTIM,
};
const FOREIGN_COOKIE = `X-Scope-OrgID=${VICTIM}; tenant=${VICTIM}; orgId=${VICTIM}; logsvc-admin-tenant=${VICTIM}`;
const SELECTOR = '{app="shared"}';

function withForeign(path: string, params: Record<string, string> = {}): string {
  const query = new URLSearchParams({ ...params, ...FOREIGN_PARAMS });
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

function leaks(text: string): string | undefined {
  const lower = text.toLowerCase();
  return SECRETS.find((s) => lower.includes(s));
}

async function push(base: string, tenant: string, labels: Record<string, string>, line: string) {
  await pushOk(base, [{ stream: labels, values: [[String(nowNs()), line]] }], tenant);
}

/** A WebSocket's messages until `until` holds or it closes; or the status that refused it. */
function collect(
  url: string,
  headers: Record<string, string>,
  until: (text: string) => boolean,
  timeoutMs = 20_000,
): Promise<{ status?: number; text: string }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers });
    let text = '';
    const done = (status?: number): void => {
      clearTimeout(timer);
      socket.terminate();
      resolve({ ...(status === undefined ? {} : { status }), text });
    };
    const timer = setTimeout(() => done(), timeoutMs);
    socket.on('unexpected-response', (_req, res) => done(res.statusCode ?? 0));
    socket.on('message', (data) => {
      text += `${String(data)}\n`;
      if (until(text)) done();
    });
    socket.on('close', () => done());
    socket.on('error', () => done());
  });
}

describe('tenants at the edges and admin actions of the UI, on real processes', () => {
  let cluster: EtcdCluster;
  /** Runs everything; its UI may not change other processes (the default). */
  let main: Member;
  /** A UI-only process whose UI may change other processes. */
  let admin: Member;
  const url = () => main.process.url;

  beforeAll(async () => {
    cluster = await EtcdCluster.start({
      replicationFactor: 1,
      // After the e2e default -auth.enabled=false.
      extraFlags: ['-auth.enabled=true'],
      config: {
        compactor: { retention_enabled: true, delete_request_cancel_period: '1h' },
        ruler: { evaluation_interval: '1s', poll_interval: '1s' },
      },
    });
    main = await cluster.add('edges-main', 'all');
    admin = await cluster.add('edges-admin', 'ui', { config: { ui: { cluster_actions: true } } });
    await push(url(), VICTIM, { app: 'shared', victim_only_label: 'secret-of-victim' }, 'x');
    await push(url(), VICTIM, { app: 'shared' }, 'secret-of-victim: the victim line');
    await push(url(), ATTACKER, { app: 'shared' }, 'attacker line');
    const rule = await fetch(`${url()}/loki/api/v1/rules/ns`, {
      method: 'POST',
      headers: { 'content-type': 'application/yaml', 'X-Scope-OrgID': VICTIM },
      body: [
        'name: secret-of-victim-group',
        'rules:',
        '  - alert: SecretOfVictim',
        `    expr: count_over_time(${SELECTOR} [1m]) > 0`,
      ].join('\n'),
    });
    expect(rule.status, await rule.text()).toBe(202);
    const start = Math.floor(Date.now() / 1000) - 3600;
    const del = await fetch(
      `${url()}/loki/api/v1/delete?${new URLSearchParams({
        query: `${SELECTOR} |= "secret-of-victim-delete"`,
        start: String(start),
      })}`,
      { method: 'POST', headers: { 'X-Scope-OrgID': VICTIM } },
    );
    expect(del.status, await del.text()).toBe(204);
    // Both processes know each other before the proxy is tried.
    await eventually(async () => {
      const o = (await (await fetch(`${url()}/ui/api/overview`)).json()) as ClusterOverview;
      return o.instances.filter((i) => i.http_url !== undefined).length >= 2 ? true : undefined;
    }, 'both processes in the overview');
  }, 180_000);

  afterAll(() => cluster?.dispose());

  async function instanceId(member: Member): Promise<string> {
    const o = (await (await fetch(`${url()}/ui/api/overview`)).json()) as ClusterOverview;
    const found = o.instances.find((i) => i.http_url === member.process.url);
    if (found === undefined) throw new Error(`${member.name} is not in the overview`);
    return found.id;
  }

  it("answers every UI and API route the UI uses with the header's tenant only", async () => {
    const self = await instanceId(main);
    const queryRange = `/loki/api/v1/query_range?query=${encodeURIComponent(SELECTOR)}`;
    const routes = [
      '/ui/api/overview',
      '/ui/api/logservice',
      ...[
        '/config',
        '/log_level',
        '/services',
        '/ready',
        '/ingester/prepare_shutdown',
        '/ui/api/logservice',
      ].map((p) => `/ui/api/instances/${encodeURIComponent(self)}${p}`),
      queryRange,
      `/loki/api/v1/query?query=${encodeURIComponent(`count_over_time(${SELECTOR} [1h])`)}`,
      '/loki/api/v1/labels',
      '/loki/api/v1/label/victim_only_label/values',
      `/loki/api/v1/series?match[]=${encodeURIComponent(SELECTOR)}`,
      `/loki/api/v1/index/volume?query=${encodeURIComponent(SELECTOR)}`,
      `/loki/api/v1/index/stats?query=${encodeURIComponent(SELECTOR)}`,
      `/loki/api/v1/detected_labels?query=${encodeURIComponent(SELECTOR)}`,
      '/loki/api/v1/rules',
      '/prometheus/api/v1/rules',
      '/prometheus/api/v1/alerts',
      '/loki/api/v1/delete',
      '/logsvc/api/v1/delete/progress',
    ];
    // The victim's own requests see its data: the check below can see a leak.
    const own = await fetch(`${url()}${queryRange}`, { headers: { 'X-Scope-OrgID': VICTIM } });
    expect(leaks(await own.text())).toBeDefined();
    for (const route of routes) {
      const res = await fetch(url() + withForeign(route), {
        headers: { 'X-Scope-OrgID': ATTACKER, cookie: FOREIGN_COOKIE },
      });
      const body = await res.text();
      expect(res.status, `${route}: ${body}`).toBeLessThan(500);
      expect(leaks(body), `${route} answered ${body.slice(0, 300)}`).toBeUndefined();
    }
    const overview = await collect(
      withForeign(`${url().replace(/^http/, 'ws')}/ui/ws`),
      { 'X-Scope-OrgID': ATTACKER, cookie: FOREIGN_COOKIE },
      (text) => text.includes('"overview"'),
    );
    expect(overview.text).toContain('"overview"');
    expect(leaks(overview.text)).toBeUndefined();
  });

  it("tails the ticket's tenant: no parameter, cookie or other header reaches the victim", async () => {
    const ws = url().replace(/^http/, 'ws');
    const tailParams = { query: SELECTOR, limit: '100' };
    // The old way, a tenant parameter, is no way in.
    const legacy = await collect(
      withForeign(`${ws}/ui/api/tail`, tailParams),
      { cookie: FOREIGN_COOKIE },
      () => false,
      5_000,
    );
    expect(leaks(legacy.text)).toBeUndefined();
    expect(legacy.status).toBe(401);
    // Nor is the tail endpoint itself with a header for another tenant.
    const direct = await collect(
      withForeign(`${ws}/loki/api/v1/tail`, tailParams),
      { 'X-Scope-OrgID': ATTACKER, cookie: FOREIGN_COOKIE },
      (text) => text.includes('attacker line'),
    );
    expect(direct.text).toContain('attacker line');
    expect(leaks(direct.text)).toBeUndefined();

    const ticketOf = async (tenant: string): Promise<string> => {
      const res = await fetch(url() + withForeign('/ui/api/tail/ticket'), {
        method: 'POST',
        headers: { 'X-Scope-OrgID': tenant, cookie: FOREIGN_COOKIE },
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as TailTicket).ticket;
    };
    expect(
      (await fetch(`${url()}/ui/api/tail/ticket?tenant=${VICTIM}`, { method: 'POST' })).status,
    ).toBe(401);

    const ticket = await ticketOf(ATTACKER);
    const tail = collect(
      withForeign(`${ws}/ui/api/tail`, { ...tailParams, ticket }),
      { cookie: FOREIGN_COOKIE, origin: url() },
      (text) => text.includes('live attacker line'),
    );
    // Lines pushed while the socket is open: the victim's first, then the attacker's.
    await new Promise((r) => setTimeout(r, 1_000));
    await push(url(), VICTIM, { app: 'shared' }, 'secret-of-victim: live victim line');
    await push(url(), ATTACKER, { app: 'shared' }, 'live attacker line');
    const got = await tail;
    expect(got.status).toBeUndefined();
    expect(got.text).toContain('attacker line');
    expect(got.text).toContain('live attacker line');
    expect(leaks(got.text)).toBeUndefined();

    // A ticket is spent by its socket, and one for the attacker cannot tail with the victim's
    // header (the header wins).
    const reused = await collect(
      `${ws}/ui/api/tail?${new URLSearchParams({ ...tailParams, ticket })}`,
      {},
      () => false,
      5_000,
    );
    expect(reused.status).toBe(401);
    const crossed = await collect(
      `${ws}/ui/api/tail?${new URLSearchParams({ ...tailParams, ticket: await ticketOf(ATTACKER) })}`,
      { 'X-Scope-OrgID': VICTIM },
      () => false,
      5_000,
    );
    expect(crossed.status).toBe(403);
    expect(leaks(crossed.text)).toBeUndefined();
  });

  it('changes another process through the UI only where ui.cluster_actions is on', async () => {
    const adminId = await instanceId(admin);
    const mainId = await instanceId(main);
    const level = async (m: Member) =>
      ((await (await fetch(`${m.process.url}/log_level`)).json()) as { message: string }).message;
    const before = await level(admin);
    // main's UI (cluster_actions off) reads the other process, but changes nothing there.
    const base = `${url()}/ui/api/instances/${encodeURIComponent(adminId)}`;
    expect((await fetch(`${base}/config`)).status).toBe(200);
    for (const [method, path] of [
      ['POST', '/log_level?log_level=debug'],
      ['POST', '/flush'],
      ['POST', '/ingester/prepare_shutdown'],
      ['DELETE', '/ingester/prepare_shutdown'],
    ] as const) {
      const res = await fetch(base + path, { method });
      const body = await res.text();
      expect(res.status, `${method} ${path}: ${body}`).toBe(403);
      expect(body).toContain('ui.cluster_actions');
    }
    expect(await level(admin)).toBe(before);
    // Its own log level it still changes.
    const self = `${url()}/ui/api/instances/${encodeURIComponent(mainId)}`;
    expect((await fetch(`${self}/log_level?log_level=info`, { method: 'POST' })).status).toBe(200);
    // The admin process's UI may change main.
    const allowed = `${admin.process.url}/ui/api/instances/${encodeURIComponent(mainId)}`;
    const changed = await fetch(`${allowed}/log_level?log_level=debug`, { method: 'POST' });
    expect(changed.status, await changed.text()).toBe(200);
    expect(await level(main)).toBe('Current log level is debug');
    await fetch(`${allowed}/log_level?log_level=warn`, { method: 'POST' });
  });
});
