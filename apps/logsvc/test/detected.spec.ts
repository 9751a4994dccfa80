import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from './harness';
import { MINUTE_NS, getAs, nowNs, postFormAs } from './read-helpers';

/** The calls Grafana's Logs Drilldown makes, against data pushed through the distributor. */
describe('detected fields, field values, detected labels and drilldown limits', () => {
  let sut: TestServer;
  const t0 = nowNs() - 10n * MINUTE_NS;
  const ts = (i: number): string => String(t0 + BigInt(i) * 1_000_000_000n);
  const range = { start: String(t0 - MINUTE_NS), end: String(nowNs()) };

  beforeAll(async () => {
    sut = await startTestServer({ config: { limits_config: { max_query_length: '2h' } } });
    const streams = [
      {
        stream: { app: 'api', env: 'prod', pod: 'p-1', shard: '1' },
        values: [
          [ts(1), 'level=info status=200 duration=15ms size=1.5KB user=alice', { trace_id: 'a1' }],
          [ts(2), 'level=error status=500 duration=1.2s size=20MB user=bob app=shadow'],
          [ts(3), '{"level":"warn","nested":{"a":1},"arr":[1],"size":"10 MiB","ok":true}'],
          [ts(4), 'no fields here'],
        ],
      },
      {
        stream: { app: 'web', env: 'dev', pod: 'p-2', shard: '2' },
        values: [[ts(5), 'level=debug status=abc user=carol', { user: 'meta-user' }]],
      },
    ];
    const res = await fetch(`${sut.url}/loki/api/v1/push`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Scope-OrgID': 'team-a' },
      body: JSON.stringify({ streams }),
    });
    expect(res.status).toBe(204);
  });
  afterAll(() => sut.close());

  const fieldsOf = async (res: Response) =>
    Object.fromEntries(
      ((await res.json()) as { fields: Array<{ label: string }> }).fields.map((f) => [f.label, f]),
    );

  it('lists the fields of logfmt and JSON lines and structured metadata, with types', async () => {
    const res = await getAs(sut, 'team-a', '/loki/api/v1/detected_fields', {
      query: '{app="api"}',
      ...range,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    const text = await res.clone().text();
    expect(text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(text).limit).toBe(1000);
    const fields = await fieldsOf(res);
    expect(Object.keys(fields)).toEqual([
      'app_extracted',
      'detected_level',
      'duration',
      'level',
      'nested_a',
      'ok',
      'size',
      'status',
      'trace_id',
      'user',
    ]);
    expect(fields.level).toEqual({
      label: 'level',
      type: 'string',
      cardinality: 3,
      parsers: ['json', 'logfmt'],
    });
    expect(fields.status).toMatchObject({ type: 'int', cardinality: 2, parsers: ['logfmt'] });
    expect(fields.duration).toMatchObject({ type: 'duration', cardinality: 2 });
    expect(fields.size).toMatchObject({ type: 'bytes', cardinality: 3 });
    expect(fields.ok).toMatchObject({ type: 'boolean', parsers: ['json'] });
    // Structured metadata, including the detected_level the distributor added: no parser.
    expect(fields.trace_id).toEqual({
      label: 'trace_id',
      type: 'string',
      cardinality: 1,
      parsers: null,
    });
    expect(fields.detected_level).toMatchObject({ cardinality: 4, parsers: null }); // + unknown
  });

  it('runs the query first: filters, parsers and line_limit decide which lines count', async () => {
    const filtered = await getAs(sut, 'team-a', '/logsvc/api/v1/detected_fields', {
      query: '{env=~".+"} | logfmt | level="error"',
      ...range,
    });
    const fields = await fieldsOf(filtered);
    expect(fields.user).toMatchObject({ cardinality: 1, parsers: ['logfmt'] });
    // The newest line only: the JSON one.
    const newest = await getAs(sut, 'team-a', '/loki/api/v1/detected_fields', {
      query: '{app="api"} != "no fields"',
      line_limit: '1',
      ...range,
    });
    expect(Object.keys(await fieldsOf(newest))).toEqual([
      'detected_level',
      'level',
      'nested_a',
      'ok',
      'size',
    ]);
  });

  it('keeps the first fields by name under a small limit', async () => {
    const res = await getAs(sut, 'team-a', '/loki/api/v1/detected_fields', {
      query: '{app="api"}',
      limit: '3',
      ...range,
    });
    expect(((await res.clone().json()) as { limit: number }).limit).toBe(3);
    expect(Object.keys(await fieldsOf(res))).toEqual([
      'app_extracted',
      'detected_level',
      'duration',
    ]);
  });

  it('merges a parsed field with structured metadata of the same name, across streams', async () => {
    const form = new URLSearchParams({ query: '{env=~".+"}', field_limit: '500', ...range });
    const res = await postFormAs(sut, 'team-a', '/loki/api/v1/detected_fields', form);
    const body = (await res.clone().json()) as { limit: number };
    expect(body.limit).toBe(500);
    const fields = await fieldsOf(res);
    expect(fields.user).toMatchObject({ cardinality: 4, parsers: ['logfmt'] });
    // Typed by the last line that has it (streams in label order, newest entry first).
    expect(fields.status).toMatchObject({ type: 'string', cardinality: 3 });
  });

  it('answers {} when nothing matches, and Loki texts for bad requests', async () => {
    const none = await getAs(sut, 'team-a', '/loki/api/v1/detected_fields', {
      query: '{app="nope"}',
      ...range,
    });
    expect(await none.text()).toBe('{}\n');
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'parse error : syntax error: unexpected $end'],
      [{ query: 'rate({app="api"}[1m])' }, 'only log selector is supported'],
      [{ query: '{app="api"}', line_limit: '0' }, 'limit must be a positive value'],
      [
        { query: '{app="api"}', line_limit: '5001' },
        'max entries limit per query exceeded, limit > max_entries_limit_per_query (5001 > 5000)',
      ],
      [{ query: '{app="api"}', limit: 'x' }, 'strconv.Atoi: parsing "x": invalid syntax'],
    ];
    for (const [params, message] of cases) {
      const res = await getAs(sut, 'team-a', '/loki/api/v1/detected_fields', params);
      expect([res.status, await res.text()]).toEqual([400, message]);
    }
  });

  it('lists a field values, byte sizes as a query can use them', async () => {
    const size = await getAs(sut, 'team-a', '/loki/api/v1/detected_field/size/values', {
      query: '{app="api"}',
      ...range,
    });
    expect(await size.json()).toEqual({ limit: 1000, values: ['1.5kB', '10MB', '20MB'] });
    const user = await getAs(sut, 'team-a', '/logsvc/api/v1/detected_field/user/values', {
      query: '{env=~".+"}',
      ...range,
    });
    expect(await user.json()).toEqual({
      limit: 1000,
      values: ['alice', 'bob', 'carol', 'meta-user'],
    });
    const none = await getAs(sut, 'team-a', '/loki/api/v1/detected_field/nope/values', {
      query: '{env=~".+"}',
      ...range,
    });
    expect(await none.text()).toBe('{}\n');
  });

  it('lists stream labels with cardinality, without ID-like ones but with static ones', async () => {
    const res = await getAs(sut, 'team-a', '/loki/api/v1/detected_labels', range);
    expect(await res.json()).toEqual({
      detectedLabels: [
        { label: 'app', cardinality: 2 },
        { label: 'env', cardinality: 2 },
        { label: 'pod', cardinality: 2 },
        { label: 'service_name', cardinality: 2 },
      ],
    });
    const one = await getAs(sut, 'team-a', '/logsvc/api/v1/detected_labels', {
      query: '{app="api"}',
      ...range,
    });
    expect(await one.json()).toEqual({
      detectedLabels: ['app', 'env', 'pod', 'service_name'].map((label) => ({
        label,
        cardinality: 1,
      })),
    });
    const none = await getAs(sut, 'team-b', '/loki/api/v1/detected_labels', range);
    expect(await none.text()).toBe('{}\n');
  });

  it('refuses {} and ranges over max_query_length for detected labels', async () => {
    const empty = await getAs(sut, 'team-a', '/loki/api/v1/detected_labels', { query: '{}' });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toMatch(/^parse error : queries require at least one regexp/);
    const long = await getAs(sut, 'team-a', '/loki/api/v1/detected_labels', { since: '3h' });
    expect([long.status, await long.text()]).toEqual([
      400,
      'the query time range exceeds the limit (query length: 3h0m0s, limit: 2h)',
    ]);
  });

  it('serves drilldown-limits with the tenant limits Drilldown reads', async () => {
    const res = await getAs(sut, 'team-a', '/loki/api/v1/drilldown-limits');
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = (await res.json()) as { limits: Record<string, unknown> };
    expect(body).toMatchObject({ pattern_ingester_enabled: false, version: expect.any(String) });
    expect(body.limits).toMatchObject({
      max_query_length: '2h',
      max_entries_limit_per_query: 5000,
      query_timeout: '1m',
      volume_enabled: true,
    });
    const anonymous = await fetch(`${sut.url}/loki/api/v1/drilldown-limits`);
    expect([anonymous.status, await anonymous.text()]).toEqual([401, 'no org id\n']);
  });
});
