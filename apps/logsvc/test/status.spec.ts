import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from './harness';

describe('status endpoints', () => {
  let sut: TestServer;
  beforeAll(async () => {
    sut = await startTestServer({ config: { limits_config: { max_line_size: '1MB' } } });
  });
  afterAll(() => sut.close());

  const get = (path: string, init?: RequestInit) => fetch(sut.url + path, init);

  it('GET /ready answers ready once every service is Running', async () => {
    const res = await get('/ready');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('ready\n');
  });

  it('GET /services lists what target all really runs, in start order', async () => {
    const res = await get('/services');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(
      [
        'server => Running',
        'process-report => Running',
        'runtime-config => Running',
        'client-pools => Running',
        'ring => Running',
        'distributor => Running',
        'ingester => Running',
        'query-scheduler => Running',
        'query-frontend => Running',
        'querier => Running',
        'query-path => Running',
        'tail-sockets => Running',
        'compactor => Running',
        'ruler => Running',
        'ui => Running',
        'ui-tail-bridge => Running',
        '',
      ].join('\n'),
    );
  });

  it('GET /config serves the current config as YAML', async () => {
    const res = await get('/config');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const doc = parseYaml(await res.text());
    expect(doc.limits_config.max_line_size).toBe('1MB');
    expect(doc.server.http_listen_address).toBe('127.0.0.1');
    expect(doc.auth_enabled).toBe(true);
  });

  it.each(['diff', 'diffs'])(
    'GET /config?mode=%s serves only the differences from the defaults',
    async (mode) => {
      const doc = parseYaml(await (await get(`/config?mode=${mode}`)).text());
      expect(doc.limits_config).toEqual({ max_line_size: '1MB' });
      expect(doc.server.log_level).toBe('warn');
      expect(doc.auth_enabled).toBeUndefined();
      expect(doc.querier).toBeUndefined();
    },
  );

  it('GET /config?mode=defaults serves the default config', async () => {
    const doc = parseYaml(await (await get('/config?mode=defaults')).text());
    expect(doc.limits_config.max_line_size).toBe('256KB');
    expect(doc.server.http_listen_port).toBe(3100);
    expect(doc.common.path_prefix).toBe('./data');
  });

  it('GET /config with an unknown mode prints the whole configuration, as Loki does', async () => {
    const res = await get('/config?mode=everything');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(await (await get('/config')).text());
  });

  it('GET /log_level reports the live level; POST changes it (query or form)', async () => {
    expect(await (await get('/log_level')).json()).toEqual({
      message: 'Current log level is warn',
    });

    const byQuery = await get('/log_level?log_level=debug', { method: 'POST' });
    expect(byQuery.status).toBe(200);
    expect(await byQuery.json()).toEqual({ status: 'success', message: 'Log level set to debug' });
    expect(sut.server.logger.level).toBe('debug');

    // At debug level, the request logger records requests.
    await get('/ready');
    expect(sut.logs.some((l) => l.msg === 'request' && l.url === '/ready')).toBe(true);

    const byForm = await get('/log_level', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'log_level=error',
    });
    expect(await byForm.json()).toEqual({ status: 'success', message: 'Log level set to error' });
    expect(await (await get('/log_level')).json()).toEqual({
      message: 'Current log level is error',
    });
  });

  it('POST /log_level with a bad or missing value is a 400 and changes nothing', async () => {
    const before = sut.server.logger.level;
    const bad = await get('/log_level?log_level=loud', { method: 'POST' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      status: 'failed',
      message: 'invalid log level: "loud"; expected one of debug, info, warn, error',
    });
    const missing = await get('/log_level', { method: 'POST' });
    expect(missing.status).toBe(400);
    expect(sut.server.logger.level).toBe(before);
  });

  it('GET /metrics exposes process metrics and counts requests by route, method and status', async () => {
    await get('/services');
    await get('/no/such/route');
    const res = await get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_heap_size_used_bytes');
    expect(text).toMatch(
      /logsvc_requests_total\{method="GET",route="services",status_code="200"\} [1-9]/,
    );
    expect(text).toMatch(
      /logsvc_requests_total\{method="GET",route="other",status_code="404"\} [1-9]/,
    );
    expect(text).toContain(
      'logsvc_request_duration_seconds_bucket{le="0.005",method="GET",route="services"',
    );
  });

  it.each(['/logsvc/api/v1/status/buildinfo', '/loki/api/v1/status/buildinfo'])(
    'GET %s serves build info',
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
      const body = (await res.json()) as Record<string, string>;
      expect(Object.keys(body).sort()).toEqual([
        'branch',
        'buildDate',
        'buildUser',
        'goVersion',
        'revision',
        'version',
      ]);
      expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(body.goVersion).toBe(process.version);
    },
  );

  it('unknown routes and wrong methods are plain-text 404s', async () => {
    for (const path of ['/nope', '/loki/api/v1/push', '/logsvc/api/v1/no_such_endpoint']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await res.text()).toBe('404 page not found\n');
    }
  });
});

describe('/config hides secrets', () => {
  it('masks the S3 secret key', async () => {
    const sut = await startTestServer({
      config: { storage_config: { aws: { access_key_id: 'AKIA', secret_access_key: 'hunter2' } } },
    });
    try {
      for (const mode of ['', 'diff']) {
        const text = await (await fetch(`${sut.url}/config?mode=${mode}`)).text();
        expect(text).not.toContain('hunter2');
        expect(parseYaml(text).storage_config.aws.secret_access_key).toBe('********');
      }
    } finally {
      await sut.close();
    }
  });
});
