import type {
  IndexStatsResponse,
  LabelsResponse,
  MatrixItem,
  QueryResponse,
  SeriesResponse,
  StreamItem,
  VectorItem,
} from '@logsvc/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import winston from 'winston';
import LokiTransport from 'winston-loki';
import { nowNs } from '../support/loki-api';
import { type ServerProcess, eventually, startServer } from '../support/server';

// Reads back what winston-loki pushed with the requests logcli and Grafana's Loki data source
// send: the same paths, parameter spellings and headers, and checks the JSON they parse.
describe('read back as logcli and Grafana ask', () => {
  let server: ServerProcess;
  const start = nowNs() - 3_600_000_000_000n;
  let end: bigint;
  const levels = { info: 30, warn: 12, error: 8 };

  async function get<T>(path: string, params: Record<string, string>, headers = {}): Promise<T> {
    const res = await fetch(`${server.url}${path}?${new URLSearchParams(params)}`, { headers });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${path} → ${res.status}: ${text}`);
    return JSON.parse(text) as T;
  }
  const streamsOf = (body: QueryResponse) => body.data.result as StreamItem[];

  beforeAll(async () => {
    server = await startServer();
    const transport = new LokiTransport({
      host: server.url,
      labels: { app: 'checkout', env: 'e2e' },
      json: false,
      batching: true,
      interval: 0.2,
    });
    const logger = winston.createLogger({ level: 'debug', transports: [transport] });
    for (const [level, n] of Object.entries(levels)) {
      for (let i = 0; i < n; i++)
        logger.log(level, `order ${i} ${level === 'error' ? 'failed' : 'ok'}`, { n: i });
    }
    await transport.flush();
    logger.close();
    end = nowNs() + 60_000_000_000n;
    await eventually(async () => {
      const body = await get<QueryResponse>('/loki/api/v1/query_range', {
        query: '{app="checkout"}',
        start: String(start),
        end: String(end),
        limit: '1000',
      });
      const n = streamsOf(body).reduce((a, s) => a + s.values.length, 0);
      return n === 50 ? true : undefined;
    }, 'all 50 lines');
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('answers `logcli query` (direction in upper case, limit, ns range)', async () => {
    const body = await get<QueryResponse>('/loki/api/v1/query_range', {
      query: '{app="checkout"} |= "failed"',
      limit: '5',
      start: String(start),
      end: String(end),
      direction: 'BACKWARD',
    });
    expect(body.status).toBe('success');
    expect(body.data.resultType).toBe('streams');
    const values = streamsOf(body).flatMap((s) => s.values);
    expect(values).toHaveLength(5);
    for (const [ts, line] of values) {
      expect(ts).toMatch(/^\d{19}$/);
      expect(line).toMatch(/^order \d+ failed /);
    }
    expect(streamsOf(body)[0].stream).toMatchObject({ app: 'checkout', level: 'error' });
    const stats = body.data.stats as { summary: { totalLinesProcessed: number } };
    expect(stats.summary.totalLinesProcessed).toBe(50);
  });

  it('answers `logcli instant-query` with a vector per level', async () => {
    const body = await get<QueryResponse>('/loki/api/v1/query', {
      query: 'sum by (level) (count_over_time({app="checkout"}[1h]))',
      limit: '30',
      time: String(end),
      direction: 'BACKWARD',
    });
    expect(body.data.resultType).toBe('vector');
    const vector = body.data.result as VectorItem[];
    const counts = Object.fromEntries(vector.map((r) => [r.metric.level, Number(r.value[1])]));
    expect(counts).toEqual(levels);
    expect(vector[0].value[0]).toBe(Number(end / 1_000_000n) / 1000);
  });

  it('answers `logcli labels` and `logcli series`', async () => {
    const range = { start: String(start), end: String(end) };
    expect((await get<LabelsResponse>('/loki/api/v1/labels', range)).data).toEqual([
      'app',
      'env',
      'level',
      'service_name',
    ]);
    expect((await get<LabelsResponse>('/loki/api/v1/label/level/values', range)).data).toEqual([
      'error',
      'info',
      'warn',
    ]);
    const series = await get<SeriesResponse>('/loki/api/v1/series', {
      ...range,
      'match[]': '{app="checkout"}',
    });
    expect(series.data).toHaveLength(3);
    expect(series.data[0]).toEqual({
      app: 'checkout',
      env: 'e2e',
      level: 'error',
      service_name: 'checkout',
    });
  });

  it('answers Grafana Explore: logs with label categories, and the logs volume histogram', async () => {
    const grafana = {
      'X-Loki-Response-Encoding-Flags': 'categorize-labels',
      'X-Query-Tags': 'Source=grafana',
      'X-Grafana-Org-Id': '1',
    };
    const logs = await get<QueryResponse>(
      '/loki/api/v1/query_range',
      {
        direction: 'backward',
        end: String(end),
        limit: '1000',
        query: '{app="checkout"} | logfmt',
        start: String(start),
        step: '2000ms',
      },
      grafana,
    );
    expect(logs.data.encodingFlags).toEqual(['categorize-labels']);
    const entry = streamsOf(logs)[0].values[0];
    expect(entry).toHaveLength(3);
    expect(entry[2]?.structuredMetadata).toMatchObject({ detected_level: expect.any(String) });

    const volume = await get<QueryResponse>(
      '/loki/api/v1/query_range',
      {
        direction: 'backward',
        end: String(end),
        query: 'sum by (level) (count_over_time({app="checkout"} | drop __error__[1m]))',
        start: String(start),
        step: '60000ms',
      },
      grafana,
    );
    expect(volume.data.resultType).toBe('matrix');
    const matrix = volume.data.result as MatrixItem[];
    const perLevel = Object.fromEntries(
      matrix.map((s) => [s.metric.level, Math.max(...s.values.map((v) => Number(v[1])))]),
    );
    // All lines were pushed within seconds, so one minute-window holds each level's total.
    expect(perLevel).toEqual(levels);
    for (const s of matrix) {
      const times = s.values.map((v) => v[0]);
      expect([...times].sort((a, b) => a - b)).toEqual(times);
    }
  });

  it('answers Grafana’s index stats and volume requests', async () => {
    const stats = await get<IndexStatsResponse>('/loki/api/v1/index/stats', {
      query: '{app="checkout"}',
      start: String(start),
      end: String(end),
    });
    expect(Object.keys(stats).sort()).toEqual(['bytes', 'chunks', 'entries', 'streams']);
    const volume = await get<QueryResponse>('/loki/api/v1/index/volume', {
      query: '{app="checkout"}',
      start: String(start),
      end: String(end),
      limit: '100',
      aggregateBy: 'series',
    });
    expect(volume.status).toBe('success');
    expect(volume.data.result).toEqual([
      { metric: { app: 'checkout' }, value: [expect.any(Number), expect.stringMatching(/^\d+$/)] },
    ]);
  });
});
