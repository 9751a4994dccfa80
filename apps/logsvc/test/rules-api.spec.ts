// The rules API over HTTP under its four prefixes, Loki's status codes and texts, and the
// Prometheus-style listings (`/prometheus/api/v1/rules` filters, `/prometheus/api/v1/alerts`).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AlertsResponse, RulesResponse } from '@logsvc/api';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from './harness';

const PREFIXES = [
  '/logsvc/api/v1/rules',
  '/api/compat/rules',
  '/loki/api/v1/rules',
  '/api/prom/rules',
];
const ACCEPTED = { status: 'success', data: null, errorType: '', error: '' };

const GROUP = `name: errors
interval: 1m
rules:
  - alert: TooManyErrors
    expr: sum(count_over_time({app="api"} |= "error" [5m])) > 10
    for: 5m
    labels:
      severity: page
`;
const OTHER = `name: volume
rules:
  - record: app:lines:rate1m
    expr: sum by (app) (rate({app="api"}[1m]))
`;

describe('rules API', () => {
  let sut: TestServer;
  beforeAll(async () => {
    sut = await startTestServer();
  });
  afterAll(() => sut.close());

  /** A request as tenant `tenant`. */
  function call(tenant: string, method: string, path: string, body?: string): Promise<Response> {
    const headers: Record<string, string> = { 'X-Scope-OrgID': tenant };
    if (body !== undefined) headers['Content-Type'] = 'application/yaml';
    return fetch(sut.url + path, { method, headers, body });
  }

  /** Loki answers errors of the rules API with Go's http.Error: the text and a newline. */
  async function expectError(res: Response, status: number, text: string): Promise<void> {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe(`${text}\n`);
  }

  describe.each(PREFIXES)('under %s', (prefix) => {
    // Each prefix on its own tenant, so each starts from an empty store.
    const tenant = `t${PREFIXES.indexOf(prefix)}`;

    it('lists nothing: 404 no rule groups found', async () => {
      await expectError(await call(tenant, 'GET', prefix), 404, 'no rule groups found');
      await expectError(await call(tenant, 'GET', `${prefix}/ns1`), 404, 'no rule groups found');
    });

    it('creates groups (202, Loki body) and lists them as YAML', async () => {
      for (const [ns, body] of [
        ['ns1', GROUP],
        ['ns1', OTHER],
        ['ns2', OTHER],
      ]) {
        const res = await call(tenant, 'POST', `${prefix}/${ns}`, body);
        expect(res.status).toBe(202);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(await res.json()).toEqual(ACCEPTED);
      }

      const all = await call(tenant, 'GET', prefix);
      expect(all.status).toBe(200);
      expect(all.headers.get('content-type')).toMatch(/^application\/yaml/);
      const listed = parseYaml(await all.text()) as Record<string, Array<{ name: string }>>;
      expect(Object.keys(listed)).toEqual(['ns1', 'ns2']);
      expect(listed.ns1.map((g) => g.name)).toEqual(['errors', 'volume']);
      expect(listed.ns2.map((g) => g.name)).toEqual(['volume']);

      const one = await call(tenant, 'GET', `${prefix}/ns2`);
      expect(one.status).toBe(200);
      expect(parseYaml(await one.text())).toEqual({ ns2: [parseYaml(OTHER)] });

      const group = await call(tenant, 'GET', `${prefix}/ns1/errors`);
      expect(group.status).toBe(200);
      expect(parseYaml(await group.text())).toEqual(parseYaml(GROUP));
    });

    it('replaces a group of the same name in place', async () => {
      const changed = GROUP.replace('interval: 1m', 'interval: 2m');
      expect((await call(tenant, 'POST', `${prefix}/ns1`, changed)).status).toBe(202);
      const listed = parseYaml(await (await call(tenant, 'GET', `${prefix}/ns1`)).text()) as {
        ns1: Array<{ name: string; interval: string }>;
      };
      expect(listed.ns1.map((g) => [g.name, g.interval])).toEqual([
        ['errors', '2m'],
        ['volume', undefined],
      ]);
    });

    it('answers 404 group does not exist for an unknown group', async () => {
      await expectError(
        await call(tenant, 'GET', `${prefix}/ns1/nope`),
        404,
        'group does not exist',
      );
      await expectError(
        await call(tenant, 'GET', `${prefix}/nope/errors`),
        404,
        'group does not exist',
      );
      // As Loki on filesystem and S3 stores: deleting a missing group is accepted.
      const del = await call(tenant, 'DELETE', `${prefix}/ns1/nope`);
      expect(del.status).toBe(202);
      expect(await del.json()).toEqual(ACCEPTED);
    });

    it('refuses bad YAML and bad LogQL with 400 and stores nothing', async () => {
      const bad: Array<[string, string | RegExp]> = [
        ['name: [', 'unable to decoded rule group'],
        ['name: g\nrules:\n  - alert: A\n    for: 5x\n    expr: x', 'unable to decoded rule group'],
        ['rules:\n  - alert: A\n    expr: vector(1)', 'group 0: Groupname must not be empty'],
        [
          'name: bad\nrules:\n  - alert: A\n    expr: sum(',
          /^could not parse expression for alert 'A' in group 'bad': parse error at line 1, col 5: syntax error: /,
        ],
        [
          'name: bad\nrules:\n  - record: r\n    expr: count_over_time({app="api"})',
          /^could not parse expression for record 'r' in group 'bad': parse error /,
        ],
      ];
      for (const [body, text] of bad) {
        const res = await call(tenant, 'POST', `${prefix}/ns3`, body);
        expect([body, res.status]).toEqual([body, 400]);
        const got = (await res.text()).trim();
        if (typeof text === 'string') expect([body, got]).toEqual([body, text]);
        else expect(got).toMatch(text);
      }
      await expectError(await call(tenant, 'GET', `${prefix}/ns3`), 404, 'no rule groups found');
      await expectError(
        await call(tenant, 'GET', `${prefix}/ns3/bad`),
        404,
        'group does not exist',
      );
    });

    it('deletes a group (202), then a namespace (202), then 404 for the unknown namespace', async () => {
      const del = await call(tenant, 'DELETE', `${prefix}/ns1/errors`);
      expect(del.status).toBe(202);
      expect(await del.json()).toEqual(ACCEPTED);
      await expectError(
        await call(tenant, 'GET', `${prefix}/ns1/errors`),
        404,
        'group does not exist',
      );
      expect((await call(tenant, 'GET', `${prefix}/ns1/volume`)).status).toBe(200);
      // Deleting it again is accepted too (Loki answers 202).
      expect((await call(tenant, 'DELETE', `${prefix}/ns1/errors`)).status).toBe(202);

      const delNs = await call(tenant, 'DELETE', `${prefix}/ns1`);
      expect(delNs.status).toBe(202);
      expect(await delNs.json()).toEqual(ACCEPTED);
      await expectError(await call(tenant, 'GET', `${prefix}/ns1`), 404, 'no rule groups found');
      await expectError(
        await call(tenant, 'DELETE', `${prefix}/ns1`),
        404,
        'group namespace does not exist',
      );
      await expectError(
        await call(tenant, 'DELETE', `${prefix}/never`),
        404,
        'group namespace does not exist',
      );

      // ns2 is still there; deleting it leaves the tenant empty.
      expect((await call(tenant, 'DELETE', `${prefix}/ns2`)).status).toBe(202);
      await expectError(await call(tenant, 'GET', prefix), 404, 'no rule groups found');
    });
  });

  it('keeps tenants apart', async () => {
    expect((await call('alice', 'POST', '/loki/api/v1/rules/ns', GROUP)).status).toBe(202);
    await expectError(await call('bob', 'GET', '/loki/api/v1/rules'), 404, 'no rule groups found');
    await expectError(
      await call('bob', 'GET', '/loki/api/v1/rules/ns/errors'),
      404,
      'group does not exist',
    );
    expect((await call('alice', 'DELETE', '/loki/api/v1/rules/ns')).status).toBe(202);
  });

  it('writes Loki’s local layout: one file per namespace under <rules>/<tenant>/', async () => {
    expect((await call('files', 'POST', '/loki/api/v1/rules/team-a', GROUP)).status).toBe(202);
    expect((await call('files', 'POST', '/loki/api/v1/rules/team-a', OTHER)).status).toBe(202);
    const dir = join(sut.config.ruler.storage.local.directory, 'files');
    expect(readdirSync(dir)).toEqual(['team-a']);
    expect((await call('files', 'DELETE', '/loki/api/v1/rules/team-a')).status).toBe(202);
    expect(existsSync(join(dir, 'team-a'))).toBe(false);
  });
});

describe('rules API with ruler.enable_api: false', () => {
  let sut: TestServer;
  beforeAll(async () => {
    sut = await startTestServer({ config: { auth_enabled: false, ruler: { enable_api: false } } });
  });
  afterAll(() => sut.close());

  it('answers 404 page not found on every rules route, as Loki registers none', async () => {
    for (const prefix of PREFIXES) {
      for (const [method, path, body] of [
        ['GET', prefix],
        ['GET', `${prefix}/ns`],
        ['GET', `${prefix}/ns/g`],
        ['POST', `${prefix}/ns`, GROUP],
        ['DELETE', `${prefix}/ns/g`],
        ['DELETE', `${prefix}/ns`],
      ] as const) {
        const res = await fetch(sut.url + path, {
          method,
          body,
          headers: body ? { 'Content-Type': 'application/yaml' } : {},
        });
        expect([method, path, res.status]).toEqual([method, path, 404]);
        expect(await res.text()).toBe('404 page not found\n');
      }
    }
    // Nothing was stored.
    expect(existsSync(join(sut.config.ruler.storage.local.directory, 'fake'))).toBe(false);
  });
});

describe('/prometheus/api/v1/rules and /alerts', () => {
  let sut: TestServer;
  beforeAll(async () => {
    sut = await startTestServer({ config: { auth_enabled: false } });
    const now = `${Date.now()}000000`;
    const push = await fetch(`${sut.url}/loki/api/v1/push`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        streams: [{ stream: { app: 'api' }, values: [[now, 'error one']] }],
      }),
    });
    expect(push.status).toBe(204);
    const groups: Array<[string, string]> = [
      [
        'team-a',
        `name: alerts
interval: 1s
rules:
  - alert: ApiErrors
    expr: sum by (app) (count_over_time({app="api"} |= "error" [5m])) > 0
    labels:
      severity: page
    annotations:
      summary: "{{ $labels.app }}: {{ $value }}"
  - record: api:errors:count5m
    expr: sum by (app) (count_over_time({app="api"} |= "error" [5m]))
`,
      ],
      [
        'team-a',
        `name: quiet
interval: 1s
rules:
  - alert: NeverFires
    expr: sum(count_over_time({app="none"}[1m])) > 0
`,
      ],
      [
        'team-b',
        `name: records
interval: 1s
rules:
  - record: api:lines:count5m
    expr: sum(count_over_time({app="api"}[5m]))
`,
      ],
    ];
    for (const [ns, body] of groups) {
      const res = await fetch(`${sut.url}/loki/api/v1/rules/${ns}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/yaml' },
        body,
      });
      expect(res.status).toBe(202);
    }
  });
  afterAll(() => sut.close());

  async function rules(query = ''): Promise<RulesResponse> {
    const res = await fetch(`${sut.url}/prometheus/api/v1/rules${query}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    return (await res.json()) as RulesResponse;
  }

  /** `file/group: rule, rule` of every listed group. */
  function shape(body: RulesResponse): string[] {
    return (body.data?.groups ?? []).map(
      (g) => `${g.file}/${g.name}: ${g.rules.map((r) => r.name).join(', ')}`,
    );
  }

  it('lists every group once evaluated, with health and the firing alert', async () => {
    const deadline = Date.now() + 20_000;
    let body: RulesResponse;
    for (;;) {
      body = await rules();
      const firing = body.data?.groups.some((g) =>
        g.rules.some((r) => r.type === 'alerting' && r.state === 'firing'),
      );
      // A group's rules are evaluated one after another: the alert may fire before the
      // recording rule after it in its group has run once.
      const evaluated = body.data?.groups.every((g) =>
        g.rules.every((r) => r.health !== 'unknown'),
      );
      if ((firing && evaluated && shape(body).length === 3) || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(shape(body)).toEqual([
      'team-a/alerts: ApiErrors, api:errors:count5m',
      'team-a/quiet: NeverFires',
      'team-b/records: api:lines:count5m',
    ]);
    const alerts = body.data!.groups[0];
    expect(alerts.interval).toBe(1);
    expect(alerts.rules[0]).toMatchObject({
      type: 'alerting',
      state: 'firing',
      health: 'ok',
      labels: { severity: 'page' },
      alerts: [
        {
          labels: { alertname: 'ApiErrors', app: 'api', severity: 'page' },
          annotations: { summary: 'api: 1' },
          state: 'firing',
          value: '1e+00',
        },
      ],
    });
    expect(alerts.rules[1]).toMatchObject({ type: 'recording', health: 'ok', lastError: '' });
    // Each query as Loki's parser prints it again, not as posted.
    expect(alerts.rules.map((r) => r.query)).toEqual([
      '(sum by (app)(count_over_time({app="api"} |= "error"[5m])) > 0)',
      'sum by (app)(count_over_time({app="api"} |= "error"[5m]))',
    ]);
  });

  it('filters by type, file, rule_group and rule_name (with and without [])', async () => {
    expect(shape(await rules('?type=alert'))).toEqual([
      'team-a/alerts: ApiErrors',
      'team-a/quiet: NeverFires',
    ]);
    expect(shape(await rules('?type=RECORD'))).toEqual([
      'team-a/alerts: api:errors:count5m',
      'team-b/records: api:lines:count5m',
    ]);
    expect(shape(await rules('?file[]=team-b'))).toEqual(['team-b/records: api:lines:count5m']);
    expect(shape(await rules('?file=team-a&file=team-b'))).toHaveLength(3);
    expect(shape(await rules('?rule_group[]=quiet'))).toEqual(['team-a/quiet: NeverFires']);
    expect(shape(await rules('?rule_group=quiet&rule_group=records'))).toEqual([
      'team-a/quiet: NeverFires',
      'team-b/records: api:lines:count5m',
    ]);
    expect(shape(await rules('?rule_name[]=api:lines:count5m&rule_name=NeverFires'))).toEqual([
      'team-a/quiet: NeverFires',
      'team-b/records: api:lines:count5m',
    ]);
    expect(shape(await rules('?file[]=team-a&type=record'))).toEqual([
      'team-a/alerts: api:errors:count5m',
    ]);
    expect(shape(await rules('?rule_name[]=nothing'))).toEqual([]);
  });

  it('refuses an unknown type with 400 bad_data', async () => {
    const res = await fetch(`${sut.url}/prometheus/api/v1/rules?type=Nope`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      status: 'error',
      data: null,
      errorType: 'bad_data',
      error: 'not supported value "nope"',
    });
  });

  it('lists the active alerts', async () => {
    const res = await fetch(`${sut.url}/prometheus/api/v1/alerts`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as AlertsResponse;
    expect(body.data?.alerts).toEqual([
      {
        labels: { alertname: 'ApiErrors', app: 'api', severity: 'page' },
        annotations: { summary: 'api: 1' },
        state: 'firing',
        activeAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
        value: '1e+00',
      },
    ]);
  });

  it('answers on the /compat/api/v1 spelling too', async () => {
    const a = await (await fetch(`${sut.url}/compat/api/v1/rules?type=alert`)).json();
    expect(shape(a as RulesResponse)).toEqual([
      'team-a/alerts: ApiErrors',
      'team-a/quiet: NeverFires',
    ]);
    expect((await fetch(`${sut.url}/compat/api/v1/alerts`)).status).toBe(200);
  });
});

describe('a rule whose expression is a log query', () => {
  let sut: TestServer;
  beforeAll(async () => {
    sut = await startTestServer({ config: { auth_enabled: false } });
    const res = await fetch(`${sut.url}/loki/api/v1/rules/logs`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/yaml' },
      body: 'name: logs\ninterval: 1s\nrules:\n  - alert: Lines\n    expr: \'{app="api"} |= "x"\'\n',
    });
    expect(res.status).toBe(202);
  });
  afterAll(() => sut.close());

  it("fails each evaluation with Loki's text", async () => {
    const deadline = Date.now() + 20_000;
    let rule: { health?: string; lastError?: string } | undefined;
    while (Date.now() < deadline) {
      const body = (await (
        await fetch(`${sut.url}/prometheus/api/v1/rules`)
      ).json()) as RulesResponse;
      rule = body.data?.groups[0]?.rules[0];
      if (rule?.health === 'err') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(rule).toMatchObject({
      health: 'err',
      lastError: 'rule result is not a vector or scalar',
    });
  });
});
