import { hostname } from 'node:os';
import pino from 'pino';
import { pinoLoki } from 'pino-loki';
import { describe, expect, it } from 'vitest';
import { nowNs, queryRange } from '../support/loki-api';
import { eventually, serverForAll } from '../support/server';

// pino-loki sends Loki's JSON push format: each value is [ns, line, structuredMetadata] where
// the metadata is the log's `meta` object; the level becomes a `level` label.
describe('pino + pino-loki (JSON)', () => {
  const server = serverForAll();

  it('stores what pino logs, with labels, levels and structured metadata', async () => {
    const transport = pinoLoki({
      host: server().url,
      labels: { app: 'billing', env: 'e2e' },
      batching: { interval: 0.2 },
      silenceErrors: false,
    });
    const logger = pino({ level: 'debug' }, transport);
    const t0 = Date.now();
    logger.info({ meta: { request_id: 'r-1', attempt: 2 } }, 'invoice sent');
    logger.warn({ invoice: 'inv-7' }, 'invoice overdue');
    logger.error({ err: { message: 'smtp down' } }, 'mail failed');
    for (let i = 0; i < 20; i++) logger.debug({ i }, 'tick');

    const streams = await eventually(async () => {
      const result = await queryRange(server().url, {
        query: '{app="billing"}',
        start: BigInt(t0 - 60_000) * 1_000_000n,
        end: nowNs() + 60_000_000_000n,
        limit: 100,
        direction: 'backward',
        categorizeLabels: true,
      });
      return result.reduce((n, s) => n + s.entries.length, 0) >= 23 ? result : undefined;
    }, '23 pino entries');
    transport.end();

    const byLevel = new Map(streams.map((s) => [s.stream.level, s]));
    expect([...byLevel.keys()].sort()).toEqual(['debug', 'error', 'info', 'warning']);
    expect(byLevel.get('info')!.stream).toEqual({
      app: 'billing',
      env: 'e2e',
      hostname: hostname(),
      level: 'info',
      service_name: 'billing',
    });

    const [sent] = byLevel.get('info')!.entries;
    const line = JSON.parse(sent.line) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 30, msg: 'invoice sent', pid: process.pid });
    expect(sent.structuredMetadata).toEqual({
      request_id: 'r-1',
      attempt: '2',
      detected_level: 'info',
    });
    // pino's `time` (ms) became the entry's timestamp.
    expect(BigInt(sent.ts)).toBe(BigInt(line.time as number) * 1_000_000n);

    expect(JSON.parse(byLevel.get('warning')!.entries[0].line)).toMatchObject({
      invoice: 'inv-7',
      msg: 'invoice overdue',
    });
    expect(byLevel.get('error')!.entries[0].line).toContain('"smtp down"');

    // Backward direction: newest first, lines logged within one millisecond in reverse
    // logging order (as Loki returns them).
    const debug = byLevel.get('debug')!.entries;
    const ts = debug.map((e) => BigInt(e.ts));
    for (let i = 1; i < ts.length; i++) expect(ts[i] <= ts[i - 1]).toBe(true);
    const ticks = debug.map((e) => JSON.parse(e.line).i as number);
    expect(ticks).toEqual(Array.from({ length: 20 }, (_, i) => 19 - i));
  });
});
