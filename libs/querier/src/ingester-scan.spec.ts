import type { Direction } from '@logsvc/chunk';
import { pushRows, pushStreams, streamsArb, withTinyIngester } from '@logsvc/ingester/testing';
import { newQueryStats, type QueryStats } from '@logsvc/logql';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { IngesterLogSource } from './ingester-source';
import { ChunkScanPool } from './scan-pool';
import { drainAll, type Row, T } from './testing/scan-rows';

const streams4 = streamsArb(4);
const queryArb = fc.record({
  from: fc.integer({ min: 0, max: 61 }),
  len: fc.integer({ min: 1, max: 62 }),
  direction: fc.constantFrom<Direction>('forward', 'backward'),
  needle: fc.constantFrom('GET', 'needle', 'err ok', 'é', 'zzz', 'a'),
  log: fc.boolean(),
});

describe('IngesterLogSource with a line prefilter, or lines in reused buffers', () => {
  const pool = new ChunkScanPool({ size: 2 });
  afterAll(() => pool.close());
  let tenantSeq = 0;

  it('returns what the unfiltered read gives, filtered, on the pool or not, transient or not, while appends go on', async () => {
    await withTinyIngester(async (ingester, client) => {
      await fc.assert(
        fc.asyncProperty(streams4, queryArb, streams4, async (streams, q, later) => {
          const tenant = `t${tenantSeq++}`;
          await pushStreams(ingester, tenant, streams);
          const needle = Buffer.from(q.needle);
          // `|~ "<needle>|zzz"`'s prefilter: either literal.
          const anyOf = [needle, Buffer.from('zzz')];
          const read = (
            source: IngesterLogSource,
            stats: QueryStats,
            filter: 'no' | 'one' | 'any',
            transientLines = false,
          ) =>
            source.select({
              tenant,
              matchers: [{ type: '=~', name: 'app', value: '.+' }],
              fromNs: T + BigInt(q.from),
              throughNs: T + BigInt(q.from + q.len),
              direction: q.direction,
              stats,
              ...(filter === 'one' ? { lineContains: needle } : {}),
              ...(filter === 'any' ? { lineContainsAny: anyOf } : {}),
              ...(q.log ? { limit: 100 } : {}),
              ...(transientLines ? { transientLines } : {}),
            });
          const plain = new IngesterLogSource(client);
          const pooled = new IngesterLogSource(client, {
            pool,
            minPoolChunks: 0,
            minPoolBytes: 0,
            taskBytes: 1,
            // Batches of one request, or of more than the pool takes at once (so a pool that
            // stops paying leaves some chunks of a batch out).
            poolBatchBytes: q.len % 2 === 0 ? 100 : 100_000,
            // Some runs leave the pool once lines match often: the same entries either way.
            maxPoolMatchShare: q.from % 2 === 0 ? Infinity : 0.3,
            poolJudgeLines: q.len % 4,
          });
          const stats = Array.from({ length: 6 }, () => newQueryStats());
          const selected = [
            await read(plain, stats[0], 'no'),
            await read(plain, stats[1], 'one'),
            await read(pooled, stats[2], 'one'),
            await read(pooled, stats[3], 'any'),
            // Lines in reused buffers (zstd blocks decoded into scratch), each copied as read.
            await read(plain, stats[4], 'no', true),
            await read(plain, stats[5], 'any', true),
          ];
          // Entries appended after the query started are not part of its answer.
          await pushStreams(ingester, tenant, later);
          const answers = [];
          for (const found of selected) {
            const streamsOut = [];
            for (const s of found) {
              const rows = await drainAll(s.entries);
              if (rows.length > 0) streamsOut.push({ labels: s.labels, rows });
            }
            answers.push(streamsOut);
          }
          const expected = answers[0]
            .map((s) => ({ ...s, rows: s.rows.filter((r) => r.line.includes(q.needle)) }))
            .filter((s) => s.rows.length > 0);
          expect(answers[1]).toEqual(expected);
          expect(answers[2]).toEqual(expected);
          const either = answers[0]
            .map((s) => ({
              ...s,
              rows: s.rows.filter((r) => r.line.includes(q.needle) || r.line.includes('zzz')),
            }))
            .filter((s) => s.rows.length > 0);
          expect(answers[3]).toEqual(either);
          expect(answers[4]).toEqual(answers[0]);
          expect(answers[5]).toEqual(either);
          // Every line in range was scanned once, in a block or in a head block.
          const scanned = (st: QueryStats) => {
            const c = st.ingester.store.chunk;
            return c.decompressedLines + c.headChunkLines;
          };
          const linesInRange = answers[0].reduce((n, s) => n + s.rows.length, 0);
          expect(scanned(stats[1])).toBeGreaterThanOrEqual(linesInRange);
          expect(scanned(stats[2])).toBe(scanned(stats[1]));
          expect(scanned(stats[3])).toBe(scanned(stats[1]));
          const bytes = (st: QueryStats) => {
            const c = st.ingester.store.chunk;
            return c.decompressedBytes + c.headChunkBytes;
          };
          expect(bytes(stats[2])).toBe(bytes(stats[1]));
          expect(bytes(stats[3])).toBe(bytes(stats[1]));
        }),
        { numRuns: 60 },
      );
    });
  });
});

describe('IngesterLogSource leaving the pool', () => {
  const pool = new ChunkScanPool({ size: 2 });
  afterAll(() => pool.close());

  it('reads on the event loop the chunks the pool did not take once most lines matched', async () => {
    await withTinyIngester(async (ingester, client) => {
      const rows: Row[] = Array.from({ length: 600 }, (_, i) => ({
        ts: T + BigInt(i),
        line: `GET /item/${i}`,
        sm: i % 3 === 0 ? [{ name: 'trace_id', value: `t${i % 2}` }] : [],
      }));
      await pushRows(ingester, 'leave', 0, rows);
      for (const direction of ['forward', 'backward'] as const) {
        const select = (source: IngesterLogSource) =>
          source.select({
            tenant: 'leave',
            matchers: [{ type: '=', name: 'app', value: 'a0' }],
            fromNs: T,
            throughNs: T + 1000n,
            direction,
            stats: newQueryStats(),
            lineContains: Buffer.from('GET'),
          });
        // Every line matches: the pool stops after its first answer, with more chunks queued.
        const pooled = new IngesterLogSource(client, {
          pool,
          minPoolChunks: 0,
          minPoolBytes: 0,
          taskBytes: 1,
          poolBatchBytes: 1 << 20,
          maxPoolMatchShare: 0.5,
          poolJudgeLines: 1,
        });
        const [got] = await select(pooled);
        const [want] = await select(new IngesterLogSource(client));
        const expected = await drainAll(want.entries);
        expect(expected).toHaveLength(600);
        expect(await drainAll(got.entries)).toEqual(expected);
      }
    });
  });
});
