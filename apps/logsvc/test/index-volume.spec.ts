import type { MatrixItem, QueryResponse, VectorItem } from '@logsvc/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from './harness';
import { MINUTE_NS, getAs, nowNs, postFormAs, pushToIngester, storeChunk } from './read-helpers';

describe('index stats and volume', () => {
  let sut: TestServer;
  const t0 = nowNs() - 30n * MINUTE_NS;
  beforeAll(async () => {
    sut = await startTestServer({
      config: { limits_config: { volume_max_series: 3 } },
    });
    await storeChunk(sut, 'acme', '{app="api", env="prod"}', [
      [t0, 'aaaaaaaaaa'],
      [t0 + 1n, 'bbbbbbbbbb'],
    ]);
    await storeChunk(sut, 'acme', '{app="web", env="prod"}', [[t0, 'cccc']]);
    await storeChunk(sut, 'acme', '{app="web", env="dev"}', [[t0, 'dd']]);
    await pushToIngester(sut, 'acme', '{app="api", env="dev"}', [[t0 + 5n, 'eeeeee']]);
  });
  afterAll(() => sut.close());

  it('index/stats counts the store’s streams, chunks, entries and bytes', async () => {
    const res = await getAs(sut, 'acme', '/loki/api/v1/index/stats', { query: '{env="prod"}' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{"streams":2,"chunks":2,"bytes":24,"entries":3}');
    const form = await postFormAs(
      sut,
      'acme',
      '/logsvc/api/v1/index/stats',
      new URLSearchParams({ query: '{app="web"}' }),
    );
    expect(await form.json()).toEqual({ streams: 2, chunks: 2, bytes: 6, entries: 2 });
  });

  it('volume aggregates by the matched labels, largest first, ingester data included', async () => {
    const res = await getAs(sut, 'acme', '/loki/api/v1/index/volume', { query: '{app=~".+"}' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as QueryResponse;
    expect(body.status).toBe('success');
    expect(body.data.resultType).toBe('vector');
    expect((body.data.result as VectorItem[]).map((r) => [r.metric, r.value[1]])).toEqual([
      [{ app: 'api' }, '26'],
      [{ app: 'web' }, '6'],
    ]);
    expect(typeof (body.data.result as VectorItem[])[0].value[0]).toBe('number');
  });

  it('volume honours targetLabels, aggregateBy=labels and limit', async () => {
    const byEnv = await getAs(sut, 'acme', '/loki/api/v1/index/volume', {
      query: '{app=~".+"}',
      targetLabels: 'env',
    });
    const byEnvBody = (await byEnv.json()) as QueryResponse;
    expect((byEnvBody.data.result as VectorItem[]).map((r) => r.metric)).toEqual([
      { env: 'prod' },
      { env: 'dev' },
    ]);
    const labels = await getAs(sut, 'acme', '/loki/api/v1/index/volume', {
      query: '{app=~".+", env=~".+"}',
      aggregateBy: 'labels',
      limit: '1',
    });
    const result = ((await labels.json()) as QueryResponse).data.result as VectorItem[];
    expect(result).toHaveLength(1);
    expect(result[0].metric).toEqual({ app: '' });
    expect(result[0].value[1]).toBe('32');
  });

  it('volume_range answers a matrix with one sample per step that has data', async () => {
    await storeChunk(sut, 'acme2', '{app="batch"}', [[t0, 'xxxx']]);
    await storeChunk(sut, 'acme2', '{app="batch"}', [[t0 + 25n * MINUTE_NS, 'yy']]);
    const end = nowNs();
    const res = await getAs(sut, 'acme2', '/loki/api/v1/index/volume_range', {
      query: '{app="batch"}',
      start: String(end - 60n * MINUTE_NS),
      end: String(end),
      step: '20m',
    });
    const body = (await res.json()) as QueryResponse;
    expect(body.data.resultType).toBe('matrix');
    expect(body.data.result).toHaveLength(1);
    const batch = (body.data.result as MatrixItem[])[0];
    expect(batch.metric).toEqual({ app: 'batch' });
    expect(batch.values.map((v) => v[1])).toEqual(['4', '2']);
    expect(batch.values[0][0]).toBeLessThan(batch.values[1][0]);
  });

  it('volume with aggregateBy=labels lists every label of the matching streams, as Loki', async () => {
    const res = await getAs(sut, 'acme', '/loki/api/v1/index/volume', {
      query: '{app="api"}',
      aggregateBy: 'labels',
    });
    const result = ((await res.json()) as QueryResponse).data.result as VectorItem[];
    expect(result.map((r) => [r.metric, r.value[1]])).toEqual([
      [{ app: '' }, '26'],
      [{ env: '' }, '26'],
    ]);
  });

  it('volume_range of a flushed chunk splits its bytes over the steps it spans', async () => {
    const lines: Array<[bigint, string]> = [];
    for (let i = 0n; i <= 20n; i++) lines.push([t0 + i * MINUTE_NS, 'z'.repeat(50)]);
    await storeChunk(sut, 'acme3', '{app="span"}', lines);
    const end = nowNs();
    const range = { query: '{app="span"}', start: String(end - 60n * MINUTE_NS), end: String(end) };
    const whole = await getAs(sut, 'acme3', '/loki/api/v1/index/volume', range);
    const wholeResult = ((await whole.json()) as QueryResponse).data.result as VectorItem[];
    const total = Number(wholeResult[0].value[1]);
    expect(total).toBe(21 * 50);
    const res = await getAs(sut, 'acme3', '/loki/api/v1/index/volume_range', {
      ...range,
      step: '5m',
    });
    const matrix = ((await res.json()) as QueryResponse).data.result as MatrixItem[];
    const values = matrix[0].values.map((v) => Number(v[1]));
    // Each 5-minute step holds about a quarter of the chunk's 20 minutes, not all of it.
    expect(values.length).toBeGreaterThanOrEqual(4);
    for (const v of values) expect(v).toBeLessThanOrEqual(total * 0.3);
    const sum = values.reduce((a, b) => a + b, 0);
    expect(sum).toBeGreaterThan(total * 0.95);
    expect(sum).toBeLessThanOrEqual(total);
  });

  it('volume with one sample per series is a vector, as in Loki', async () => {
    const res = await getAs(sut, 'acme', '/loki/api/v1/index/volume_range', {
      query: '{env="prod"}',
      step: '1h',
      since: '1h',
    });
    const body = (await res.json()) as QueryResponse;
    expect(body.data.resultType).toBe('vector');
    expect((body.data.result as VectorItem[])[0].value[1]).toBe('24');
  });

  it('refuses a volume_range step finer than 11,000 points, as Loki does for every range query', async () => {
    const started = performance.now();
    const res = await getAs(sut, 'acme', '/loki/api/v1/index/volume_range', {
      query: '{env="prod"}',
      step: '0.001',
      since: '1h',
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe(
      'exceeded maximum resolution of 11,000 points per time series. Try increasing the value of the step parameter',
    );
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('refuses more series than volume_max_series with Loki’s message', async () => {
    const res = await getAs(sut, 'acme', '/loki/api/v1/index/volume', { query: '{}' });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('the query hit the max number of series limit (limit: 3 series)');
  });

  it('checks stats and volume parameters as Loki checks a range or instant query’s', async () => {
    const ask = async (path: string, params: Record<string, string>) => {
      const res = await getAs(sut, 'acme', path, { query: '{app="api"}', ...params });
      return `${res.status} ${(await res.text()).trim()}`;
    };
    const inverted = { start: String(t0), end: String(t0 - MINUTE_NS) };
    const endBeforeStart = '400 end timestamp must not be before or equal to start time';
    expect(await ask('/loki/api/v1/index/stats', inverted)).toBe(endBeforeStart);
    expect(await ask('/loki/api/v1/index/volume', inverted)).toBe(endBeforeStart);
    expect(await ask('/loki/api/v1/index/stats', { step: 'abc' })).toBe(
      '400 cannot parse "abc" to a valid duration',
    );
    expect(await ask('/loki/api/v1/index/stats', { limit: 'abc' })).toMatch(
      /^400 strconv.Atoi: parsing "abc": invalid syntax/,
    );
    // A volume limit of 0 means the default.
    expect(await ask('/loki/api/v1/index/volume', { limit: '0' })).toMatch(/^200 /);
    expect(await ask('/loki/api/v1/index/volume', { limit: '-1' })).toBe(
      '400 limit must be a positive value',
    );
  });

  it('rejects a bad aggregateBy', async () => {
    const res = await getAs(sut, 'acme', '/loki/api/v1/index/volume', {
      query: '{app="api"}',
      aggregateBy: 'pods',
    });
    expect(res.status).toBe(400);
    expect((await res.text()).trim()).toBe('invalid aggregation option');
  });
});

describe('volume disabled', () => {
  let sut: TestServer;
  beforeAll(async () => {
    sut = await startTestServer({ config: { limits_config: { volume_enabled: false } } });
  });
  afterAll(() => sut.close());

  it('answers 404 like Loki when volume_enabled is false', async () => {
    const res = await getAs(sut, 'acme', '/loki/api/v1/index/volume', { query: '{app="api"}' });
    expect(res.status).toBe(404);
  });
});
