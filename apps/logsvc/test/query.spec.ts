import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from './harness';
import { MINUTE_NS, getAs, nowNs, postFormAs, pushToIngester, storeChunk } from './read-helpers';

const SECOND_NS = 1_000_000_000n;
const ns = (n: bigint) => String(n);

interface StreamsBody {
  status: string;
  data: {
    resultType: string;
    encodingFlags?: string[];
    result: Array<{ stream: Record<string, string>; values: unknown[][] }>;
    stats: { summary: Record<string, number>; querier: { store: Record<string, number> } };
  };
}

interface MetricBody {
  status: string;
  data: {
    resultType: string;
    result: Array<{
      metric: Record<string, string>;
      value?: [number, string];
      values?: [number, string][];
    }>;
  };
}

describe('query and query_range', () => {
  let sut: TestServer;
  // Whole minutes, half an hour ago: step-aligned metric answers are exact.
  const t0 = ((nowNs() - 30n * MINUTE_NS) / MINUTE_NS) * MINUTE_NS;
  const range = { start: ns(t0 - MINUTE_NS), end: ns(t0 + 10n * MINUTE_NS) };

  beforeAll(async () => {
    sut = await startTestServer({
      config: {
        querier: { multi_tenant_queries_enabled: true },
        frontend: { support_parquet_encoding: true },
        limits_config: { max_entries_limit_per_query: 1000, max_query_series: 3 },
      },
    });
    // Flushed chunks in the store and recent entries in the ingester, for one stream each.
    await storeChunk(sut, 'team-a', '{app="api", env="prod"}', [
      [t0, 'level=info status=200 path=/a'],
      [t0 + 10n * SECOND_NS, 'level=error status=500 path=/b'],
      [t0 + 20n * SECOND_NS, 'level=info status=200 path=/c <html>'],
    ]);
    await pushToIngester(sut, 'team-a', '{app="web", env="prod"}', [
      [t0 + 5n * SECOND_NS, '{"level":"warn","latency":"250ms"}'],
      [t0 + 65n * SECOND_NS, '{"level":"info","latency":"1.5s"}'],
    ]);
    await storeChunk(sut, 'team-b', '{app="db"}', [[t0 + SECOND_NS, 'select 1']]);
  });
  afterAll(() => sut.close());

  const queryRange = (params: Record<string, string>, tenant = 'team-a') =>
    getAs(sut, tenant, '/loki/api/v1/query_range', { ...range, ...params });

  it('answers a log query with streams newest first, from the store and the ingester', async () => {
    const res = await queryRange({ query: '{env="prod"}' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    const text = await res.text();
    expect(text.endsWith('}\n')).toBe(true);
    // Lines are HTML-escaped as Loki's encoder writes them.
    expect(text).toContain('path=/c \\u003chtml\\u003e');
    const body = JSON.parse(text) as StreamsBody;
    expect(body.status).toBe('success');
    expect(body.data.resultType).toBe('streams');
    expect(body.data.result.map((s) => s.stream)).toEqual([
      { app: 'api', env: 'prod' },
      { app: 'web', env: 'prod' },
    ]);
    expect(body.data.result[0].values.map((v) => v[0])).toEqual([
      ns(t0 + 20n * SECOND_NS),
      ns(t0 + 10n * SECOND_NS),
      ns(t0),
    ]);
    expect(body.data.stats.summary.totalLinesProcessed).toBe(5);
    expect(body.data.stats.summary.totalEntriesReturned).toBe(5);
    expect(body.data.stats.querier.store.totalChunksRef).toBe(1);
  });

  it('counts the lines read from the ingester under ingester stats, as Loki', async () => {
    type Chunk = { postFilterLines: number; headChunkLines: number };
    type Full = {
      data: {
        stats: {
          ingester: { totalLinesSent: number; store: { chunk: Chunk } };
          querier: { store: { chunk: Chunk } };
        };
      };
    };
    const stats = async (params: Record<string, string>) =>
      ((await (await queryRange(params)).json()) as Full).data.stats;
    // A limited query reads fewer lines than the stream holds: they are counted all the same.
    const recent = await stats({ query: '{app="web"}', limit: '1' });
    expect(recent.ingester.totalLinesSent).toBeGreaterThanOrEqual(1);
    expect(recent.ingester.store.chunk.headChunkLines).toBe(recent.ingester.totalLinesSent);
    expect(recent.ingester.store.chunk.postFilterLines).toBeGreaterThanOrEqual(1);
    expect(recent.querier.store.chunk.postFilterLines).toBe(0);
    const flushed = await stats({ query: '{app="api"}' });
    expect(flushed.querier.store.chunk.postFilterLines).toBe(3);
    expect(flushed.ingester.store.chunk.postFilterLines).toBe(0);
    // Metric queries count the lines their pipeline kept too.
    const metric = await stats({
      query: 'count_over_time({app="web"} |= "level" [5m])',
      step: '60',
    });
    expect(metric.ingester.store.chunk.postFilterLines).toBeGreaterThanOrEqual(2);
    expect(metric.querier.store.chunk.postFilterLines).toBe(0);
  });

  it('keeps the oldest entries in forward direction under a limit', async () => {
    const body = (await (
      await queryRange({ query: '{env="prod"}', direction: 'forward', limit: '2' })
    ).json()) as StreamsBody;
    const all = body.data.result.flatMap((s) => s.values.map((v) => v[1]));
    expect(all.sort()).toEqual(
      ['level=info status=200 path=/a', '{"level":"warn","latency":"250ms"}'].sort(),
    );
  });

  it('thins entries by interval', async () => {
    const body = (await (
      await queryRange({ query: '{app="api"}', direction: 'forward', interval: '15s' })
    ).json()) as StreamsBody;
    expect(body.data.result[0].values.map((v) => v[0])).toEqual([ns(t0), ns(t0 + 20n * SECOND_NS)]);
  });

  it('runs the pipeline: parsers, label filters and line_format', async () => {
    const body = (await (
      await queryRange({
        query: '{app="api"} | logfmt | status >= 500 | line_format "{{.path}} failed"',
      })
    ).json()) as StreamsBody;
    expect(body.data.result).toHaveLength(1);
    expect(body.data.result[0].stream).toMatchObject({ level: 'error', status: '500' });
    expect(body.data.result[0].values).toEqual([[ns(t0 + 10n * SECOND_NS), '/b failed']]);
  });

  it('gives each entry its label categories when Grafana asks for them', async () => {
    const res = await getAs(sut, 'team-a', '/loki/api/v1/query_range', {
      ...range,
      query: '{app="web"} | json',
    });
    const plain = (await res.json()) as StreamsBody;
    expect(plain.data.encodingFlags).toBeUndefined();
    const categorized = await fetch(
      `${sut.url}/loki/api/v1/query_range?${new URLSearchParams({ ...range, query: '{app="web"} | json' })}`,
      {
        headers: {
          'X-Scope-OrgID': 'team-a',
          'X-Loki-Response-Encoding-Flags': 'categorize-labels',
        },
      },
    );
    const body = (await categorized.json()) as StreamsBody;
    expect(body.data.encodingFlags).toEqual(['categorize-labels']);
    expect(body.data.result).toHaveLength(1);
    expect(body.data.result[0].stream).toEqual({ app: 'web', env: 'prod' });
    expect(body.data.result[0].values[1]).toEqual([
      ns(t0 + 5n * SECOND_NS),
      '{"level":"warn","latency":"250ms"}',
      { parsed: { latency: '250ms', level: 'warn' } },
    ]);
  });

  it('answers a metric range query with a matrix at each step', async () => {
    const res = await queryRange({
      query: 'sum by (app) (count_over_time({env="prod"}[1m]))',
      start: ns(t0),
      end: ns(t0 + 2n * MINUTE_NS),
      step: '60s',
    });
    const text = await res.text();
    expect(text.endsWith('\n')).toBe(false);
    const body = JSON.parse(text) as MetricBody;
    expect(body.data.resultType).toBe('matrix');
    const t0s = Number(t0 / SECOND_NS);
    expect(body.data.result).toEqual([
      {
        metric: { app: 'api' },
        values: [
          [t0s, '1'],
          [t0s + 60, '2'],
        ],
      },
      {
        metric: { app: 'web' },
        values: [
          [t0s + 60, '1'],
          [t0s + 120, '1'],
        ],
      },
    ]);
  });

  it('evaluates a metric range query at multiples of the step, start rounded down and end up', async () => {
    const t0s = Number(t0 / SECOND_NS);
    const body = (await (
      await queryRange({
        query: 'sum(count_over_time({env="prod"}[1m]))',
        start: ns(t0 + 7n * SECOND_NS),
        end: ns(t0 + 65n * SECOND_NS),
        step: '20s',
      })
    ).json()) as MetricBody;
    expect(body.data.result).toEqual([
      {
        metric: {},
        values: [
          [t0s, '1'],
          [t0s + 20, '4'],
          [t0s + 40, '4'],
          [t0s + 60, '3'],
          [t0s + 80, '1'],
        ],
      },
    ]);

    // A step that does not divide a minute: the points sit on multiples of 7 s since the epoch.
    const odd = (await (
      await queryRange({
        query: 'sum(count_over_time({env="prod"}[10m]))',
        start: ns(t0 + 16n * SECOND_NS),
        end: ns(t0 + 40n * SECOND_NS),
        step: '7',
      })
    ).json()) as MetricBody;
    const first = Math.floor((t0s + 16) / 7) * 7;
    const last = Math.ceil((t0s + 40) / 7) * 7;
    const want = Array.from({ length: (last - first) / 7 + 1 }, (_, i) => first + 7 * i);
    expect((odd.data.result[0].values ?? []).map((v) => v[0])).toEqual(want);
  });

  it('answers an instant metric query with a vector, GET or form POST', async () => {
    const params = {
      query: 'sum(rate({env="prod"} | logfmt | __error__="" [1m]))',
      time: ns(t0 + 30n * SECOND_NS),
    };
    const get = (await (
      await getAs(sut, 'team-a', '/loki/api/v1/query', params)
    ).json()) as MetricBody;
    expect(get.data.resultType).toBe('vector');
    // Three api lines and the first web line: logfmt without --strict skips what it cannot read.
    expect(get.data.result).toEqual([
      { metric: {}, value: [Number(t0 / SECOND_NS) + 30, String(4 / 60)] },
    ]);
    const post = await postFormAs(
      sut,
      'team-a',
      '/logsvc/api/v1/query',
      new URLSearchParams(params),
    );
    expect(post.status).toBe(200);
    expect(((await post.json()) as MetricBody).data.result).toEqual(get.data.result);
  });

  it('answers an instant scalar and vector()', async () => {
    const body = (await (
      await getAs(sut, 'team-a', '/loki/api/v1/query', { query: '1 + 2', time: '1700000000' })
    ).json()) as { data: { resultType: string; result: unknown } };
    expect(body.data).toMatchObject({ resultType: 'scalar', result: [1700000000, '3'] });
  });

  it('answers other methods than GET and POST with 405, as Loki’s router does', async () => {
    for (const method of ['PUT', 'DELETE']) {
      const res = await fetch(`${sut.url}/loki/api/v1/query_range?query={app="api"}`, { method });
      expect(res.status, method).toBe(405);
      expect(await res.text()).toBe('');
    }
  });

  it('refuses a log query as an instant query', async () => {
    const res = await getAs(sut, 'team-a', '/loki/api/v1/query', { query: '{app="api"}' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe(
      'log queries are not supported as an instant query type, please change your query to a range query type',
    );
  });

  it('answers invalid LogQL and bad parameters with 400 and Loki’s text', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [
        { query: '{app="api"' },
        'parse error at line 1, col 11: syntax error: unexpected $end, expecting } or ,',
      ],
      [
        { query: '{app="api"} | line_format "{{ .msg"' },
        'parse error : stage \'| line_format "{{ .msg"\' : invalid line template: template: line:1: unclosed action',
      ],
      [
        { query: '{app="api"}', step: '0' },
        'zero or negative query resolution step widths are not accepted. Try a positive integer',
      ],
      [{ query: '{app="api"}', direction: 'sideways' }, "invalid direction 'sideways'"],
      [{ query: '{app="api"}', limit: '-1' }, 'limit must be a positive value'],
      [
        { query: '{app="api"}', start: ns(t0), end: ns(t0 - 1n) },
        'end timestamp must not be before or equal to start time',
      ],
    ];
    for (const [params, message] of cases) {
      const res = await queryRange(params);
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(await res.text()).toBe(message);
    }
  });

  it('applies the query limits with their names in the message', async () => {
    const tooMany = await queryRange({ query: '{app="api"}', limit: '1001' });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.text()).toBe(
      'max entries limit per query exceeded, limit > max_entries_limit_per_query (1001 > 1000)',
    );
    const tooLong = await queryRange({ query: '{app="api"}', start: '0', end: ns(nowNs()) });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.text()).toMatch(
      /^the query time range exceeds the limit \(query length: .*, limit: 30d1h\)$/,
    );
    const series = await getAs(sut, 'team-a', '/loki/api/v1/query', {
      query: 'count_over_time({env="prod"} | logfmt [1h])',
      time: ns(t0 + 30n * SECOND_NS),
    });
    expect(series.status).toBe(400);
    expect(await series.text()).toBe('maximum of series (3) reached for a single query');
  });

  it('fails a metric query whose samples carry a pipeline error', async () => {
    const res = await getAs(sut, 'team-a', '/loki/api/v1/query', {
      query: 'sum(count_over_time({app="web"} | json [1h]))',
      time: ns(t0 + 2n * MINUTE_NS),
    });
    expect(res.status).toBe(200);
    const bad = await getAs(sut, 'team-a', '/loki/api/v1/query', {
      query: 'sum by (level) (count_over_time({app="api"} | json [1h]))',
      time: ns(t0 + 2n * MINUTE_NS),
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/^pipeline error: 'JSONParserErr' for series: /);
  });

  it('queries several tenants with __tenant_id__', async () => {
    const body = (await (
      await queryRange({ query: '{__tenant_id__=~"team-.*", app=~"api|db"}' }, 'team-a|team-b')
    ).json()) as StreamsBody;
    expect(body.data.result.map((s) => s.stream)).toEqual([
      { __tenant_id__: 'team-a', app: 'api', env: 'prod' },
      { __tenant_id__: 'team-b', app: 'db' },
    ]);
    const one = (await (
      await queryRange({ query: '{__tenant_id__="team-b", app=~".+"}' }, 'team-a|team-b')
    ).json()) as StreamsBody;
    expect(one.data.result.map((s) => s.stream.app)).toEqual(['db']);
    const isolated = (await (await queryRange({ query: '{app="db"}' })).json()) as StreamsBody;
    expect(isolated.data.result).toEqual([]);
  });

  it('returns Parquet when asked for it', async () => {
    const res = await fetch(
      `${sut.url}/loki/api/v1/query_range?${new URLSearchParams({ ...range, query: '{app="api"}' })}`,
      { headers: { 'X-Scope-OrgID': 'team-a', Accept: 'application/vnd.apache.parquet' } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.apache.parquet');
    const file = await res.arrayBuffer();
    const { parquetReadObjects } = await import('hyparquet');
    const rows = await parquetReadObjects({ file });
    expect(rows.map((r) => r.line)).toEqual([
      'level=info status=200 path=/c <html>',
      'level=error status=500 path=/b',
      'level=info status=200 path=/a',
    ]);
    expect(rows[0].labels).toEqual({ app: 'api', env: 'prod' });
  });

  it('refuses metric queries on the legacy /api/prom/query', async () => {
    const res = await getAs(sut, 'team-a', '/api/prom/query', {
      ...range,
      query: 'count_over_time({app="api"}[1m])',
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('legacy endpoints only support log queries');
  });

  it('answers the legacy /api/prom/query in its own shape', async () => {
    const res = await getAs(sut, 'team-a', '/api/prom/query', {
      ...range,
      query: '{app="api"} |= "status=500"',
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { streams: Array<{ labels: string; entries: unknown[] }> };
    expect(body.streams).toEqual([
      {
        labels: '{app="api", env="prod"}',
        entries: [
          {
            ts: new Date(Number((t0 + 10n * SECOND_NS) / 1_000_000n))
              .toISOString()
              .replace('.000Z', 'Z'),
            line: 'level=error status=500 path=/b',
          },
        ],
      },
    ]);
  });
});

describe('query limits and Parquet off by default', () => {
  let sut: TestServer;
  beforeAll(async () => {
    sut = await startTestServer();
    await storeChunk(sut, 'team-a', '{app="api"}', [[nowNs() - MINUTE_NS, 'x']]);
  });
  afterAll(() => sut.close());

  it('refuses Parquet unless frontend.support_parquet_encoding is set, as Loki does', async () => {
    const res = await fetch(
      `${sut.url}/loki/api/v1/query_range?${new URLSearchParams({ query: '{app="api"}' })}`,
      { headers: { 'X-Scope-OrgID': 'team-a', Accept: 'application/vnd.apache.parquet' } },
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toBe(
      'support for Parquet encoded responses is disabled. Enable with -frontend.support-parquet-encoding=true',
    );
  });

  it('refuses several tenants unless multi-tenant queries are enabled', async () => {
    const res = await getAs(sut, 'team-a|team-b', '/loki/api/v1/query_range', {
      query: '{app="api"}',
    });
    expect(res.status).toBe(400);
  });

  it('defaults to the last hour and Loki’s limits', async () => {
    const res = await getAs(sut, 'team-a', '/loki/api/v1/query_range', { query: '{app="api"}' });
    const body = (await res.json()) as StreamsBody;
    expect(body.data.result[0].values.map((v) => v[1])).toEqual(['x']);
    const limit = await getAs(sut, 'team-a', '/loki/api/v1/query_range', {
      query: '{app="api"}',
      limit: '5001',
    });
    expect(await limit.text()).toBe(
      'max entries limit per query exceeded, limit > max_entries_limit_per_query (5001 > 5000)',
    );
  });
});
