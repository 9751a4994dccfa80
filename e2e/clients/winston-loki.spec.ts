import { describe, expect, it } from 'vitest';
import winston from 'winston';
import LokiTransport from 'winston-loki';
import { type ResultStream, nowNs, queryRange } from '../support/loki-api';
import { eventually, serverForAll } from '../support/server';

// winston-loki with `json: false` sends protobuf compressed with snappy, its label string
// unsorted (`{level="info",app=...}`), one stream per label set.
describe('winston + winston-loki (protobuf, snappy)', () => {
  const server = serverForAll();
  const from = nowNs() - 3_600_000_000_000n;

  async function read(query: string, expected: number): Promise<ResultStream[]> {
    return eventually(async () => {
      const streams = await queryRange(server().url, {
        query,
        start: from,
        end: nowNs() + 60_000_000_000n,
        limit: 1000,
        direction: 'forward',
        categorizeLabels: true,
      });
      const n = streams.reduce((a, s) => a + s.entries.length, 0);
      return n >= expected ? streams : undefined;
    }, `${expected} entries for ${query}`);
  }

  it('stores what winston logs, with its labels and levels, readable through query_range', async () => {
    const connectionErrors: unknown[] = [];
    const transport = new LokiTransport({
      host: server().url,
      labels: { app: 'shop', env: 'e2e' },
      json: false,
      batching: true,
      interval: 0.2,
      onConnectionError: (err: unknown) => connectionErrors.push(err),
    });
    // winston-loki silently falls back to JSON when it cannot load `snappy`: make sure it did not.
    expect((transport as unknown as { batcher: { contentType: string } }).batcher.contentType).toBe(
      'application/x-protobuf',
    );
    const logger = winston.createLogger({ level: 'debug', transports: [transport] });
    logger.info('order created', { order_id: 42 });
    logger.warn('payment slow');
    logger.error('payment failed', { labels: { component: 'payments' } });
    for (let i = 0; i < 50; i++) logger.debug(`cache miss ${i}`);
    await transport.flush();
    logger.close();
    expect(connectionErrors).toEqual([]);

    const streams = await read('{app="shop"}', 53);
    const byLevel = new Map(streams.map((s) => [s.stream.level + (s.stream.component ?? ''), s]));
    expect(byLevel.size).toBe(4);

    const info = byLevel.get('info')!;
    // Labels as Grafana shows them: the pushed ones plus the discovered service_name.
    expect(info.stream).toEqual({ app: 'shop', env: 'e2e', level: 'info', service_name: 'shop' });
    expect(info.entries.map((e) => e.line)).toEqual([
      'order created {"order_id":42,"level":"info"}',
    ]);
    expect(info.entries[0].structuredMetadata).toEqual({ detected_level: 'info' });

    expect(byLevel.get('warn')!.entries.map((e) => e.line)).toEqual([
      'payment slow {"level":"warn"}',
    ]);
    const failed = byLevel.get('errorpayments')!;
    expect(failed.stream).toEqual({
      app: 'shop',
      component: 'payments',
      env: 'e2e',
      level: 'error',
      service_name: 'shop',
    });
    expect(failed.entries[0].line).toBe('payment failed {"level":"error"}');

    // Forward direction: oldest first. winston-loki stamps lines in milliseconds, so lines
    // logged within one millisecond share a timestamp; those keep the order they were logged in.
    const debug = byLevel.get('debug')!;
    expect(debug.entries.map((e) => e.line)).toEqual(
      Array.from({ length: 50 }, (_, i) => `cache miss ${i} {"level":"debug"}`),
    );
    const ts = debug.entries.map((e) => BigInt(e.ts));
    for (let i = 1; i < ts.length; i++) expect(ts[i] >= ts[i - 1]).toBe(true);
  });

  it('answers a line filter over what winston sent', async () => {
    const streams = await read('{app="shop"} |= "payment"', 2);
    expect(streams.flatMap((s) => s.entries.map((e) => e.line)).sort()).toEqual([
      'payment failed {"level":"error"}',
      'payment slow {"level":"warn"}',
    ]);
  });
});
