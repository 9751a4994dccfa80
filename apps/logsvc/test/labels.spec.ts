import type { SeriesResponse } from '@logsvc/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from './harness';
import { MINUTE_NS, getAs, nowNs, postFormAs, pushToIngester, storeChunk } from './read-helpers';

describe('labels, label values and series', () => {
  let sut: TestServer;
  const t0 = nowNs() - 30n * MINUTE_NS;
  beforeAll(async () => {
    sut = await startTestServer({ config: { querier: { multi_tenant_queries_enabled: true } } });
    // Flushed data in the store, recent data in the ingester, another tenant's data apart.
    await storeChunk(sut, 'team-a', '{app="api", env="prod"}', [
      [t0, 'GET /a'],
      [t0 + 1n, 'GET /b'],
    ]);
    await pushToIngester(sut, 'team-a', '{app="web", env="dev", zone="z1"}', [[t0 + 2n, 'hi']]);
    await storeChunk(sut, 'team-b', '{app="db", secret="yes"}', [[t0, 'select']]);
    await pushToIngester(sut, 'team-b', '{__tenant_id__="own", app="cache"}', [[t0, 'miss']]);
  });
  afterAll(() => sut.close());

  it('lists label names of the store and the ingester, only the tenant own', async () => {
    const res = await getAs(sut, 'team-a', '/loki/api/v1/labels');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(await res.json()).toEqual({ status: 'success', data: ['app', 'env', 'zone'] });
  });

  it('restricts label names to streams selected by query', async () => {
    const res = await getAs(sut, 'team-a', '/logsvc/api/v1/labels', { query: '{app="api"}' });
    expect(await res.json()).toEqual({ status: 'success', data: ['app', 'env'] });
  });

  it('omits data when there are no labels in range', async () => {
    const res = await getAs(sut, 'team-a', '/loki/api/v1/labels', {
      start: String(t0 - 600n * MINUTE_NS),
      end: String(t0 - 500n * MINUTE_NS),
    });
    expect(await res.text()).toBe('{"status":"success"}');
  });

  it('lists the values of one label, with a since window', async () => {
    const res = await getAs(sut, 'team-a', '/loki/api/v1/label/app/values', { since: '2h' });
    expect(await res.json()).toEqual({ status: 'success', data: ['api', 'web'] });
    // A window of the last minute leaves out the stored chunk (30 minutes old). The stream in
    // the ingester is listed whatever the time of its lines, as Loki's ingester answers.
    const narrow = await getAs(sut, 'team-a', '/loki/api/v1/label/app/values', { since: '1m' });
    expect(await narrow.json()).toEqual({ status: 'success', data: ['web'] });
  });

  it('answers the deprecated label paths in the legacy shape', async () => {
    const res = await getAs(sut, 'team-a', '/api/prom/label/env/values');
    expect(await res.json()).toEqual({ values: ['dev', 'prod'] });
    const names = await getAs(sut, 'team-a', '/api/compat/label');
    expect(await names.json()).toEqual({ values: ['app', 'env', 'zone'] });
  });

  it('accepts start and end as RFC 3339, float seconds and nanoseconds', async () => {
    const startS = Number(t0 / 1_000_000_000n) - 60;
    const forms = [
      { start: new Date(startS * 1000).toISOString(), end: new Date().toISOString() },
      { start: `${startS}.25`, end: `${Date.now() / 1000}` },
      { start: String(BigInt(startS) * 1_000_000_000n), end: String(nowNs()) },
      { start: String(startS), end: String(Math.floor(Date.now() / 1000) + 1) },
    ];
    for (const form of forms) {
      const res = await getAs(sut, 'team-a', '/loki/api/v1/label/env/values', form);
      expect(await res.json(), JSON.stringify(form)).toEqual({
        status: 'success',
        data: ['dev', 'prod'],
      });
    }
  });

  it('rejects a bad timestamp with Loki’s message', async () => {
    const res = await getAs(sut, 'team-a', '/loki/api/v1/labels', { start: 'yesterday' });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe(
      `could not parse 'start' parameter: strconv.ParseInt: parsing "yesterday": invalid syntax`,
    );
  });

  it('lists series for match[] on GET and form POST', async () => {
    const get = await getAs(sut, 'team-a', '/loki/api/v1/series', { 'match[]': '{env=~".+"}' });
    expect(await get.json()).toEqual({
      status: 'success',
      data: [
        { app: 'api', env: 'prod' },
        { app: 'web', env: 'dev', zone: 'z1' },
      ],
    });
    const form = new URLSearchParams();
    form.append('match[]', '{app="api"}');
    form.append('match[]', '{zone="z1"}');
    const post = await postFormAs(sut, 'team-a', '/logsvc/api/v1/series', form);
    expect(post.status).toBe(200);
    expect(((await post.json()) as SeriesResponse).data).toHaveLength(2);
  });

  it('refuses a range that ends before it starts with Loki’s lookback text', async () => {
    const inverted = { start: String(t0), end: String(t0 - MINUTE_NS), 'match[]': '{app="api"}' };
    for (const path of [
      '/loki/api/v1/labels',
      '/loki/api/v1/label/app/values',
      '/loki/api/v1/series',
    ]) {
      const res = await getAs(sut, 'team-a', path, inverted);
      expect(res.status).toBe(400);
      expect((await res.text()).trim()).toBe(
        'this data is no longer available, it is past now - max_query_lookback (0s)',
      );
    }
  });

  it('requires match[] on series and valid selectors', async () => {
    const none = await getAs(sut, 'team-a', '/loki/api/v1/series');
    expect(none.status).toBe(400);
    expect(await none.text()).toBe('0 matcher groups supplied');
    const bad = await getAs(sut, 'team-a', '/loki/api/v1/series', { 'match[]': '{app=}' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/^parse error at line 1, col \d+: /);
  });

  it('takes series groups whose matchers all accept an empty value, but no empty group among others', async () => {
    const loose = await getAs(sut, 'team-a', '/loki/api/v1/series', { 'match[]': '{app=~".*"}' });
    expect(((await loose.json()) as SeriesResponse).data).toEqual([
      { app: 'api', env: 'prod' },
      { app: 'web', env: 'dev', zone: 'z1' },
    ]);
    const form = new URLSearchParams();
    form.append('match[]', '{}');
    form.append('match[]', '{app="api"}');
    const mixed = await postFormAs(sut, 'team-a', '/loki/api/v1/series', form);
    expect(mixed.status).toBe(400);
    expect(await mixed.text()).toBe('0 matchers in group: {}');
  });

  it('merges tenants with a|b and labels each series with __tenant_id__', async () => {
    const res = await getAs(sut, 'team-a|team-b', '/loki/api/v1/series', {
      'match[]': '{app=~".+"}',
    });
    const data = ((await res.json()) as SeriesResponse).data;
    expect(data).toContainEqual({ app: 'db', secret: 'yes', __tenant_id__: 'team-b' });
    expect(data).toContainEqual({ app: 'api', env: 'prod', __tenant_id__: 'team-a' });
    // As in Loki, a series that carries the label already keeps its own value.
    expect(data).toContainEqual({ app: 'cache', __tenant_id__: 'own' });
    const values = await getAs(sut, 'team-a|team-b', '/loki/api/v1/label/__tenant_id__/values');
    expect(((await values.json()) as SeriesResponse).data).toEqual(['team-a', 'team-b']);
  });

  it('leaves out an empty tenant between separators (a|b|), as Loki does', async () => {
    const values = await getAs(sut, 'team-a|team-b|', '/loki/api/v1/label/__tenant_id__/values');
    expect(values.status).toBe(200);
    expect(((await values.json()) as SeriesResponse).data).toEqual(['team-a', 'team-b']);
  });

  it('requires the org id', async () => {
    const res = await fetch(sut.url + '/loki/api/v1/labels');
    expect(res.status).toBe(401);
  });
});

describe('labels of pushed data', () => {
  let sut: TestServer;
  beforeAll(async () => {
    sut = await startTestServer({ config: { auth_enabled: false } });
  });
  afterAll(() => sut.close());

  it('lists what POST /loki/api/v1/push stored (tenant fake without auth)', async () => {
    const ts = String(nowNs());
    const push = await fetch(sut.url + '/loki/api/v1/push', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ streams: [{ stream: { job: 'pushed' }, values: [[ts, 'hello']] }] }),
    });
    expect(push.status).toBe(204);
    const values = await fetch(sut.url + '/loki/api/v1/label/job/values');
    expect(await values.json()).toEqual({ status: 'success', data: ['pushed'] });
    const series = await fetch(
      sut.url + '/loki/api/v1/series?match[]=' + encodeURIComponent('{job="pushed"}'),
    );
    expect(((await series.json()) as SeriesResponse).data).toEqual([
      { job: 'pushed', service_name: 'pushed' },
    ]);
  });
});
