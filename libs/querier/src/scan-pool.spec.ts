import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLabels } from '@logsvc/api';
import {
  ChunkFormatError,
  type Direction,
  type EntryCursor,
  MemChunk,
  recodeChunk,
} from '@logsvc/chunk';
import { newQueryStats } from '@logsvc/logql';
import { ChunkStore } from '@logsvc/storage';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScanRange, ScanResultCursor, scanChunk } from './chunk-scan';
import { ChunkScanPool } from './scan-pool';
import { StoreLogSource } from './store-source';
import { filesystemStore, toStoredChunk } from './testing/filesystem-store';
import { drainAll, type Row, rowArb, T } from './testing/scan-rows';

const drain = (c: EntryCursor): Row[] => {
  const out: Row[] = [];
  while (c.next())
    out.push({ ts: c.timestampNs, line: c.line.toString(), sm: c.structuredMetadata });
  return out;
};

const needleArb = fc.constantFrom('', 'GET', 'needle', 'err ok', 'é', 'zzz');
const directionArb = fc.constantFrom<Direction>('forward', 'backward');

/** A chunk of these rows; small blocks so a chunk has several, some out of order. */
function encodeChunk(rows: readonly Row[]): Buffer {
  const c = new MemChunk({ blockSize: 64 });
  for (const r of rows) c.append(r.ts, Buffer.from(r.line), r.sm);
  return c.encode();
}

/** The chunk's cursor over `range` as a query in this thread opens it. */
function sequentialCursor(data: Buffer, range: ScanRange): ReturnType<MemChunk['iterator']> {
  const needle = Buffer.from(range.needle);
  return MemChunk.decode(data).iterator(
    range.fromNs,
    range.throughNs,
    range.direction,
    needle.length > 0 ? { lineContains: needle } : {},
  );
}

function sequential(data: Buffer, range: ScanRange): Row[] {
  return drain(sequentialCursor(data, range));
}

const rangeArb = fc
  .record({
    from: fc.integer({ min: 0, max: 61 }),
    len: fc.integer({ min: 1, max: 62 }),
    direction: directionArb,
    needle: needleArb,
  })
  .map(({ from, len, direction, needle }): ScanRange => ({
    fromNs: T + BigInt(from),
    throughNs: T + BigInt(from + len),
    direction,
    needle: Buffer.from(needle),
  }));

describe('scanChunk', () => {
  it('replays exactly the entries of the chunk’s own cursor, with its scan counts', () => {
    fc.assert(
      fc.property(
        fc.array(rowArb, { minLength: 1, maxLength: 60 }),
        rangeArb,
        fc.boolean(),
        (rows, range, columnar) => {
          // Columnar chunks' lines are read into reused scratch buffers in the scan.
          const data = columnar ? recodeChunk(encodeChunk(rows), 'columnar') : encodeChunk(rows);
          const result = scanChunk(data, range);
          expect(drain(new ScanResultCursor(result))).toEqual(sequential(data, range));
          const cursor = sequentialCursor(data, range);
          drain(cursor);
          expect([result.scannedLines, result.scannedBytes]).toEqual([
            cursor.scanned.lines,
            cursor.scanned.bytes,
          ]);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('ChunkScanPool', () => {
  const pool = new ChunkScanPool({ size: 2, maxInFlightPerWorker: 1 });
  afterAll(() => pool.close());

  it('gives each chunk’s entries as the sequential path does, whatever the interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(rowArb, { minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 5 }),
        rangeArb,
        async (chunks, range) => {
          const data = chunks.map(encodeChunk);
          // One request per chunk and one for all, answered in whatever order workers finish.
          const [single, all] = await Promise.all([
            Promise.all(data.map((d) => pool.scan([d], range))),
            pool.scan(data, range),
          ]);
          const expected = data.map((d) => sequential(d, range));
          expect(single.map(([r]) => drain(new ScanResultCursor(r)))).toEqual(expected);
          expect(all.map((r) => drain(new ScanResultCursor(r)))).toEqual(expected);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('rejects corrupt chunk bytes with a ChunkFormatError and keeps working', async () => {
    const good = encodeChunk([{ ts: T, line: 'fine', sm: [] }]);
    const bad = Buffer.from(good);
    bad[bad.length - 3] ^= 0xff;
    const range: ScanRange = {
      fromNs: T,
      throughNs: T + 1n,
      direction: 'forward',
      needle: Buffer.alloc(0),
    };
    await expect(pool.scan([good, bad], range)).rejects.toBeInstanceOf(ChunkFormatError);
    const [r] = await pool.scan([good], range);
    expect(drain(new ScanResultCursor(r)).map((e) => e.line)).toEqual(['fine']);
  });

  it('refuses work once closed', async () => {
    const closed = new ChunkScanPool({ size: 1 });
    await closed.close();
    await expect(closed.scan([], { ...sampleRange() })).rejects.toThrow(/closed/);
  });
});

function sampleRange(): ScanRange {
  return { fromNs: T, throughNs: T + 1n, direction: 'forward', needle: Buffer.alloc(0) };
}

describe('StoreLogSource with a scan pool', () => {
  let dir: string;
  let store: ChunkStore;
  const pool = new ChunkScanPool({ size: 2 });
  let tenantSeq = 0;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'logsvc-scan-pool-'));
    store = filesystemStore(dir);
  });
  afterAll(async () => {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const streamArb = fc.array(fc.array(rowArb, { minLength: 1, maxLength: 30 }), {
    minLength: 1,
    maxLength: 3,
  });

  it('returns the same streams, entries and scan counts as the sequential path', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(streamArb, { minLength: 1, maxLength: 4 }),
        rangeArb,
        fc.integer({ min: 1, max: 40 }),
        async (streams, range, budget) => {
          const tenant = `t${tenantSeq++}`;
          for (let s = 0; s < streams.length; s++) {
            const labels = parseLabels(`{app="a${s}"}`);
            await store.putChunks(
              tenant,
              streams[s].map((rows) => {
                const c = new MemChunk({ blockSize: 64 });
                for (const r of rows) c.append(r.ts, Buffer.from(r.line), r.sm);
                return toStoredChunk(labels, c);
              }),
            );
          }
          const read = async (source: StoreLogSource, lazy = false) => {
            const stats = newQueryStats();
            const needle = Buffer.from(range.needle);
            const found = await source.select({
              tenant,
              matchers: [{ type: '=~', name: 'app', value: '.+' }],
              fromNs: range.fromNs,
              throughNs: range.throughNs,
              direction: range.direction,
              stats,
              ...(needle.length > 0 ? { lineContains: needle } : {}),
              ...(lazy ? { limit: 100 } : {}),
            });
            const entries = [];
            for (const s of found)
              entries.push({ labels: s.labels, rows: await drainAll(s.entries) });
            const c = stats.querier.store.chunk;
            return { entries, lines: c.decompressedLines, bytes: c.decompressedBytes };
          };
          const seq = await read(new StoreLogSource(store, { pool: null }));
          const par = await read(
            new StoreLogSource(store, {
              pool,
              minPoolChunks: 0,
              minPoolBytes: 0,
              taskBytes: 1,
              poolBatchBytes: 64 * budget,
              // Some runs leave the pool once lines match often: the same entries either way.
              maxPoolMatchShare: budget % 2 === 0 ? Infinity : 0.3,
              poolJudgeLines: budget % 4,
            }),
          );
          expect(par.entries).toEqual(seq.entries);
          expect([par.lines, par.bytes]).toEqual([seq.lines, seq.bytes]);
          // Fetched as read, a batch at a time, on the pool or not: the same entries.
          const lazyBatchSize = 1 + (budget % 3);
          for (const lazyPool of [null, pool]) {
            const options = { pool: lazyPool, lazyBatchSize, minPoolChunks: 0, minPoolBytes: 0 };
            const lazy = await read(new StoreLogSource(store, options), true);
            expect(lazy.entries).toEqual(seq.entries);
            expect([lazy.lines, lazy.bytes]).toEqual([seq.lines, seq.bytes]);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
