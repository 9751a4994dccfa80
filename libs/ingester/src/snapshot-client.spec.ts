import type { Direction, EntryCursor } from '@logsvc/chunk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type IngesterReadStats, type IngesterSelect, LocalIngesterClient } from './client';
import { pushStreams, streamsArb, T, type TestRow as Row, withTinyIngester } from './testing';
import { SnapshotIngesterClient } from './snapshot-client';
import type { StreamQueryResult } from './query';

const streamsArbOf = streamsArb(5);

const selectArb = fc.record({
  from: fc.integer({ min: 0, max: 61 }),
  len: fc.integer({ min: 1, max: 62 }),
  direction: fc.constantFrom<Direction>('forward', 'backward'),
  needle: fc.constantFrom(undefined, 'GET', 'err ok', 'é', 'zzz'),
  split: fc.boolean(),
  shard: fc.constantFrom(undefined, { index: 0, of: 2 }, { index: 1, of: 2 }),
  app: fc.constantFrom('.+', 'a[01]', 'a3'),
});

function drain(c: EntryCursor | null): Row[] | null {
  if (c === null) return null;
  const out: Row[] = [];
  while (c.next())
    out.push({ ts: c.timestampNs, line: c.line.toString(), sm: [...c.structuredMetadata] });
  return out;
}

/** Everything a querier reads of a result: entries, per-chunk cursors and chunk parts. */
function readAll(results: StreamQueryResult[]) {
  return results.map((r) => ({
    labels: r.labels,
    fingerprint: r.fingerprint,
    entries: drain(r.entries),
    cursors: r.cursors.map((c) => drain(c)),
    chunks: r.chunks?.map((c) => ({
      blocks: drain(c.blocks),
      head: drain(c.head),
      blocksMinTs: c.blocksMinTs,
      blocksMaxTs: c.blocksMaxTs,
      encoded: c.encodeBlocks === null ? null : c.encodeBlocks().length > 0,
    })),
  }));
}

const newStats = (): IngesterReadStats => ({
  totalChunksMatched: 0,
  headChunkBytes: 0,
  headChunkLines: 0,
  compressedBytes: 0,
  ingestersReached: 0,
});

describe('SnapshotIngesterClient', () => {
  let seq = 0;

  it('reads a snapshot as the in-process client reads memory, whatever is appended later', async () => {
    await withTinyIngester(async (ingester, local) => {
      await fc.assert(
        fc.asyncProperty(streamsArbOf, selectArb, streamsArbOf, async (streams, q, later) => {
          const tenant = `t${seq++}`;
          await pushStreams(ingester, tenant, streams);
          const select: IngesterSelect = {
            matchers: [{ type: '=~', name: 'app', value: q.app }],
            fromNs: T + BigInt(q.from),
            throughNs: T + BigInt(q.from + q.len),
            direction: q.direction,
            ...(q.needle === undefined ? {} : { lineContains: Buffer.from(q.needle) }),
            ...(q.split ? { split: true } : {}),
            ...(q.shard === undefined ? {} : { shard: q.shard }),
          };
          // As a worker gets it: cloned, its bytes transferred.
          const remote = new SnapshotIngesterClient(async (t, s) => {
            const snapshot = local.snapshot(t, s);
            return structuredClone(snapshot, { transfer: [...snapshot.buffers] });
          });
          const here = newStats();
          const there = newStats();
          const expected = await local.query(tenant, select, here);
          const got = await remote.query(tenant, select, there);
          await pushStreams(ingester, tenant, later);
          expect(readAll(got)).toEqual(readAll(expected));
          expect(there).toEqual(here);
        }),
        { numRuns: 150 },
      );
    });
  });

  it('reaches no ingester when none is attached', async () => {
    const local = new LocalIngesterClient();
    const remote = new SnapshotIngesterClient(async (t, s) => local.snapshot(t, s));
    const stats = newStats();
    const select: IngesterSelect = { matchers: [], fromNs: 0n, throughNs: T, direction: 'forward' };
    expect(await remote.query('t', select, stats)).toEqual([]);
    expect(stats.ingestersReached).toBe(0);
  });
});
