import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  EMPTY_LABELS,
  labelsToString,
  parseLabels,
  type Labels,
  type LogEntry,
  type Matcher,
  type PushRequest,
  type PushStream,
  type StreamMemo,
} from '@logsvc/api';
import { MemChunk } from '@logsvc/chunk';
import {
  DEFAULT_INGESTER_CONFIG,
  DEFAULT_TENANT_LIMITS,
  type IngesterConfig,
  type IngesterTenantLimits,
} from './config';
import { FlushError, IngesterStoppedError, WalWriteError } from './errors';
import { Ingester, type IngesterOptions } from './ingester';
import { newQueryStats } from './query';
import type { ChunkSink, FlushedChunk } from './sink';
import { decodePushBodyStreams, encodePushProtobuf } from '@logsvc/push';
import { FaultyWalFs } from './wal/faulty-fs';
import { readFrame, RecordType } from './wal/frame';
import { decodeCheckpointRecord } from './wal/records';

const SECOND = 1_000_000_000n;
const MINUTE = 60n * SECOND;
const HOUR = 60n * MINUTE;
/** 2024-01-01T00:00:00Z in ns. */
const T0 = 1_704_067_200n * SECOND;

class MemorySink implements ChunkSink {
  readonly chunks: { tenant: string; chunk: FlushedChunk }[] = [];
  failuresLeft = 0;
  calls = 0;

  async putChunks(tenant: string, chunks: FlushedChunk[]): Promise<void> {
    this.calls++;
    if (this.failuresLeft > 0) {
      this.failuresLeft--;
      throw new Error('object store unavailable');
    }
    for (const chunk of chunks) this.chunks.push({ tenant, chunk });
  }

  /** Every stored entry as `labels ts line`, decoded from the flushed chunk bytes. */
  decodedEntries(): string[] {
    const out: string[] = [];
    for (const { chunk } of this.chunks) {
      const it = MemChunk.decode(chunk.data).iterator(
        chunk.fromNs,
        chunk.throughNs + 1n,
        'forward',
      );
      while (it.next()) {
        out.push(`${labelsToString(chunk.labels)} ${it.timestampNs - T0} ${it.line.toString()}`);
      }
    }
    return out;
  }
}

function req(streams: Record<string, [bigint, string][]>): PushRequest {
  return {
    streams: Object.entries(streams).map(([labels, entries]) => ({
      labels: parseLabels(labels),
      entries: entries.map(([ts, line]) => ({
        timestampNs: T0 + ts,
        line: Buffer.from(line),
        structuredMetadata: EMPTY_LABELS,
      })),
    })),
  };
}

const eq = (name: string, value: string): Matcher => ({ type: '=', name, value });

/** The request as the HTTP push path hands it over: decoded from its snappy body, body along. */
async function asReceived(request: PushRequest): Promise<PushRequest> {
  const decoded = await decodePushBodyStreams({
    body: encodePushProtobuf(request),
    contentType: 'application/x-protobuf',
    maxDecompressedBytes: 1 << 30,
  });
  const streams = [...decoded.streams].filter((s): s is PushStream => 'labels' in s);
  return { streams, source: decoded.source };
}

/** The record types of the WAL segments in `walDir`, in order. */
async function recordTypes(walDir: string): Promise<number[]> {
  const types: number[] = [];
  for (const name of (await readdir(walDir)).filter((n) => /^\d+$/.test(n)).sort()) {
    const buf = await readFile(join(walDir, name));
    for (let frame = readFrame(buf, 0); frame !== null && 'payload' in frame;) {
      types.push(frame.payload[0]);
      frame = readFrame(buf, frame.next);
    }
  }
  return types;
}

describe('Ingester', () => {
  let dir: string;
  let clock: number;
  let sink: MemorySink;
  const open: Ingester[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ingester-spec-'));
    clock = 1_700_000_000_000;
    sink = new MemorySink();
  });
  afterEach(async () => {
    for (const i of open.splice(0)) await i.shutdown({ flush: false }).catch(() => {});
    await rm(dir, { recursive: true, force: true });
  });

  async function start(
    config: Partial<IngesterConfig> = {},
    extra: Partial<IngesterOptions> = {},
  ): Promise<Ingester> {
    const sut = new Ingester({
      config: {
        ...DEFAULT_INGESTER_CONFIG,
        flush_op_backoff: { min_period: 1, max_period: 4, max_retries: 3 },
        wal: { enabled: true, dir, checkpoint_duration: 60_000 },
        ...config,
      },
      sink,
      now: () => clock,
      backgroundLoops: false,
      walLock: { heartbeatMs: 10, staleMs: 50 },
      ...extra,
    });
    open.push(sut);
    await sut.start();
    return sut;
  }

  /**
   * What kill -9 leaves behind: the ingester stops refreshing its WAL directory lock (and
   * writes nothing more), so the next one on the directory takes the lock over once stale.
   */
  function die(sut: Ingester): void {
    (sut as unknown as { wal: { lock: { stopHeartbeat(): void } } }).wal.lock.stopHeartbeat();
  }

  /** All entries in memory as `labels ts line`, forward order per stream. */
  function memory(sut: Ingester, tenant = 't', matchers: Matcher[] = []): string[] {
    const out: string[] = [];
    for (const s of sut.query(tenant, matchers, 0n, 2n ** 62n, 'forward')) {
      while (s.entries.next()) {
        out.push(`${labelsToString(s.labels)} ${s.entries.timestampNs - T0} ${s.entries.line}`);
      }
    }
    return out;
  }

  describe('ordering and de-duplication', () => {
    it('drops a copy of the last stored line after its chunk was cut, whatever its length', async () => {
      // Every entry fills a chunk: the next push starts a new one, so only the stream's copy
      // of its last line can recognise the copy.
      const sut = await start({ chunk_target_size: 1 });
      const long = 'L'.repeat(1000);
      const sameLength = 'M'.repeat(1000);
      const steps: [bigint, string, number, number][] = [
        [1n, 'short', 1, 0],
        [1n, 'short', 0, 1],
        [2n, long, 1, 0],
        [2n, long, 0, 1],
        [2n, sameLength, 1, 0],
        [2n, 'short', 1, 0],
        [2n, 'short', 0, 1],
      ];
      for (const [ts, line, appended, duplicates] of steps) {
        const outcome = await sut.push('t', req({ '{app="a"}': [[ts, line]] }));
        expect({ ts, line: line.slice(0, 5), ...outcome }).toMatchObject({
          ts,
          line: line.slice(0, 5),
          appended,
          duplicates,
        });
      }
    });

    it('compares with the last stored line, not with what a reused block buffer holds later', async () => {
      // Every entry fills a block: the head block's buffers are emptied and reused by the next
      // append, which writes its line where the last one was.
      const sut = await start({ chunk_block_size: 1, chunk_target_size: 1 << 20 });
      const steps: [bigint, string, number, number][] = [
        [5n, 'xy', 1, 0],
        [5n, 'xy', 0, 1],
        [5n, 'x', 1, 0],
        [5n, 'x', 0, 1],
        [6n, 'xyz', 1, 0],
        [6n, 'xy', 1, 0],
        [6n, 'xy', 0, 1],
        [6n, 'xyz', 1, 0],
      ];
      for (const [ts, line, appended, duplicates] of steps) {
        const outcome = await sut.push('t', req({ '{app="a"}': [[ts, line]] }));
        expect({ ts, line, ...outcome }).toMatchObject({ ts, line, appended, duplicates });
      }
      // Reads merge the later copy of (6, xyz) away, as Loki's do.
      const stored = memory(sut).map((l) => l.split(' ').slice(-2).join(' '));
      expect(stored).toEqual(['5 xy', '5 x', '6 xyz', '6 xy']);
    });

    it('accepts out-of-order entries inside the window and refuses older ones as Loki does', async () => {
      const sut = await start();
      await sut.push('t', req({ '{app="a"}': [[3n * HOUR, 'newest']] }));
      const outcome = await sut.push(
        't',
        req({
          '{app="a"}': [
            [2n * HOUR + 30n * MINUTE, 'inside window'],
            [HOUR + 59n * MINUTE + 500_000_000n, 'too old'],
            [3n * HOUR, 'newest'],
            [3n * HOUR, 'same ts, other line'],
          ],
          '{app="b"}': [[0n, 'other stream']],
        }),
      );
      expect(outcome.appended).toBe(3);
      expect(outcome.duplicates).toBe(1);
      expect(outcome.errors).toHaveLength(1);
      const [err] = outcome.errors;
      expect(err.httpStatus).toBe(400);
      expect(err.reason).toBe('too_far_behind');
      expect(err.message).toBe(
        "entry with timestamp 2024-01-01 01:59:00.5 +0000 UTC ignored, reason: 'entry too far behind, entry timestamp is: 2024-01-01T01:59:00Z, oldest acceptable timestamp is: 2024-01-01T02:00:00Z',\n" +
          `user 't', total ignored: 1 out of 4 for stream: {app="a"}`,
      );
      expect(memory(sut)).toEqual([
        `{app="a"} ${2n * HOUR + 30n * MINUTE} inside window`,
        `{app="a"} ${3n * HOUR} newest`,
        `{app="a"} ${3n * HOUR} same ts, other line`,
        '{app="b"} 0 other stream',
      ]);
      expect(sut.metrics().discarded_entries_total).toEqual({ too_far_behind: 1 });
    });

    it('lists at most max_returned_stream_errors refused entries but counts them all', async () => {
      const sut = await start({ max_returned_stream_errors: 2 });
      await sut.push('t', req({ '{app="a"}': [[5n * HOUR, 'x']] }));
      const { errors } = await sut.push(
        't',
        req({
          '{app="a"}': [
            [1n, 'a'],
            [2n, 'b'],
            [3n, 'c'],
          ],
        }),
      );
      expect(errors[0].message.split('\n')).toHaveLength(3);
      expect(errors[0].message).toMatch(/total ignored: 3 out of 3 for stream: \{app="a"\}$/);
    });

    it('refuses any older entry when unordered_writes is off', async () => {
      const limits = (): IngesterTenantLimits => ({
        ...DEFAULT_TENANT_LIMITS,
        max_streams_per_user: 0,
        max_global_streams_per_user: 0,
        unordered_writes: false,
      });
      const sut = await start({}, { limits });
      await sut.push('t', req({ '{app="a"}': [[10n, 'b']] }));
      const { errors, appended } = await sut.push(
        't',
        req({
          '{app="a"}': [
            [9n, 'a'],
            [11n, 'c'],
          ],
        }),
      );
      expect(appended).toBe(1);
      expect(errors[0].reason).toBe('out_of_order');
      expect(errors[0].message).toMatch(/reason: 'entry out of order'/);
    });
  });

  describe('stream limits', () => {
    it('refuses new streams past the limit with 429 and still stores the other streams', async () => {
      const limits = (): IngesterTenantLimits => ({
        ...DEFAULT_TENANT_LIMITS,
        max_streams_per_user: 0,
        max_global_streams_per_user: 4,
        unordered_writes: true,
      });
      // Two healthy ingesters, replication factor 1: this one may hold 4 / 2 * 1 = 2 streams.
      const sut = await start(
        {},
        { limits, ringShare: () => ({ healthyIngesters: 2, replicationFactor: 1 }) },
      );
      const outcome = await sut.push(
        't',
        req({ '{s="1"}': [[1n, 'a']], '{s="2"}': [[1n, 'b']], '{s="3"}': [[1n, 'c']] }),
      );
      expect(outcome.appended).toBe(2);
      expect(outcome.errors[0].httpStatus).toBe(429);
      expect(outcome.errors[0].message).toBe(
        `Maximum active stream limit exceeded when trying to create stream {s="3"}, reduce the number of active streams (reduce labels or reduce label values), or contact your Loki administrator to see if the limit can be increased, user: 't'`,
      );
      // Existing streams keep taking entries, and other tenants have their own count.
      expect((await sut.push('t', req({ '{s="1"}': [[2n, 'x']] }))).errors).toEqual([]);
      expect((await sut.push('u', req({ '{s="3"}': [[2n, 'x']] }))).errors).toEqual([]);
    });

    it('limits each stream to per_stream_rate_limit: entries over it are refused with 429, the rest stored', async () => {
      const limits = (): IngesterTenantLimits => ({
        ...DEFAULT_TENANT_LIMITS,
        per_stream_rate_limit: 10,
        per_stream_rate_limit_burst: 20,
      });
      const sut = await start({}, { limits });
      const outcome = await sut.push(
        't',
        req({
          '{app="hot"}': [
            [1n, 'x'.repeat(15)],
            [2n, 'y'.repeat(10)],
            [3n, 'z'.repeat(5)],
          ],
          '{app="cold"}': [[1n, 'c']],
        }),
      );
      expect(outcome.appended).toBe(3);
      expect(outcome.errors).toHaveLength(1);
      expect(outcome.errors[0]).toMatchObject({
        kind: 'limit',
        reason: 'per_stream_rate_limit',
        discardedEntries: 1,
        discardedBytes: 10,
        message: `Per stream rate limit exceeded (limit: 10B/sec) while attempting to ingest for stream '{app="hot"}' totaling 10B, consider splitting a stream via additional labels or contact your Loki administrator to see if the limit can be increased`,
      });
      expect(memory(sut)).toEqual([
        `{app="hot"} 1 ${'x'.repeat(15)}`,
        `{app="hot"} 3 ${'z'.repeat(5)}`,
        `{app="cold"} 1 c`,
      ]);
      expect(sut.metrics().discarded_entries_total).toEqual({ per_stream_rate_limit: 1 });
      // The bucket refills with time: a second later the stream takes 10 more bytes.
      clock += 1000;
      const later = await sut.push('t', req({ '{app="hot"}': [[4n, 'y'.repeat(10)]] }));
      expect(later).toMatchObject({ appended: 1, errors: [] });
    });
  });

  describe('cutting and flushing', () => {
    it('cuts full chunks and flushes them; the stored bytes decode to the same entries', async () => {
      const sut = await start({ chunk_target_size: 100 });
      const sm = [{ name: 'trace_id', value: 'x1' }];
      const p = req({
        '{app="a"}': Array.from(
          { length: 10 },
          (_, i) => [BigInt(i), `line-${i}-`.padEnd(30, '.')] as [bigint, string],
        ),
      });
      p.streams[0].entries[0] = { ...p.streams[0].entries[0], structuredMetadata: sm };
      await sut.push('t', p);
      expect(sut.metrics().chunks_cut_total.full).toBeGreaterThanOrEqual(2);
      await sut.flushCheck();
      await sut.flushAll();
      expect(sink.decodedEntries()).toEqual(
        Array.from({ length: 10 }, (_, i) => `{app="a"} ${i} ${`line-${i}-`.padEnd(30, '.')}`),
      );
      const first = sink.chunks[0].chunk;
      expect(first.fromNs).toBe(T0);
      expect(first.entries).toBeGreaterThan(0);
      const it0 = MemChunk.decode(first.data).iterator(T0, T0 + 1n, 'forward');
      expect(it0.next() && it0.structuredMetadata).toEqual(sm);
      // Flushed with chunk_retain_period 0: gone from memory, stream removed.
      expect(memory(sut)).toEqual([]);
      expect(sut.metrics().streams_removed_total).toBe(1);
      expect(sut.metrics().chunks_flushed_entries_total).toBe(10);
    });

    it('cuts and flushes a head chunk idle longer than chunk_idle_period', async () => {
      const sut = await start({ chunk_idle_period: 60_000 });
      await sut.push('t', req({ '{app="a"}': [[1n, 'a']] }));
      clock += 60_000;
      await sut.flushCheck();
      expect(sink.chunks).toHaveLength(0);
      clock += 1;
      await sut.flushCheck();
      expect(sink.decodedEntries()).toEqual(['{app="a"} 1 a']);
      expect(sut.metrics().chunks_cut_total).toEqual({ idle: 1 });
    });

    it('cuts a head chunk whose entries span more than max_chunk_age', async () => {
      const sut = await start({ max_chunk_age: 3_600_000 });
      await sut.push(
        't',
        req({
          '{app="a"}': [
            [0n, 'a'],
            [HOUR, 'b'],
          ],
        }),
      );
      await sut.flushCheck();
      expect(sink.chunks).toHaveLength(0);
      await sut.push('t', req({ '{app="a"}': [[HOUR + 1n, 'c']] }));
      await sut.flushCheck();
      expect(sut.metrics().chunks_cut_total).toEqual({ max_age: 1 });
      expect(sink.decodedEntries()).toHaveLength(3);
    });

    it('retries a failed flush with backoff and stores the chunk once', async () => {
      const sut = await start();
      await sut.push('t', req({ '{app="a"}': [[1n, 'a']] }));
      sink.failuresLeft = 2;
      await sut.flushAll();
      expect(sink.calls).toBe(3);
      expect(sink.decodedEntries()).toEqual(['{app="a"} 1 a']);
      expect(sut.metrics().flush_failures_total).toBe(2);
    });

    it('keeps chunks queryable when every retry fails and flushes them later', async () => {
      const sut = await start();
      await sut.push('t', req({ '{app="a"}': [[1n, 'a']] }));
      sink.failuresLeft = 3;
      await expect(sut.flushAll()).rejects.toBeInstanceOf(FlushError);
      expect(memory(sut)).toEqual(['{app="a"} 1 a']);
      // The next flush check waits for the retry time (max_period) before trying again.
      await sut.flushCheck();
      expect(sink.calls).toBe(3);
      clock += 4;
      await sut.flushCheck();
      expect(sink.decodedEntries()).toEqual(['{app="a"} 1 a']);
      expect(memory(sut)).toEqual([]);
    });

    it('fails a flush of many streams within one retry schedule, and recovers by itself', async () => {
      const sut = await start({ concurrent_flushes: 1 });
      for (let i = 0; i < 20; i++) await sut.push('t', req({ [`{s="${i}"}`]: [[1n, `e${i}`]] }));
      sink.failuresLeft = 1_000;
      await expect(sut.flushAll()).rejects.toThrow('20 streams failed to flush');
      // Three tries for the first stream, then one for each other stream while the store fails.
      expect(sink.calls).toBe(3 + 19);
      expect(memory(sut)).toHaveLength(20);
      sink.failuresLeft = 0;
      await sut.flushAll();
      expect(sink.decodedEntries()).toHaveLength(20);
    });

    it('keeps flushed chunks in memory for chunk_retain_period', async () => {
      const sut = await start({ chunk_retain_period: 30_000 });
      await sut.push('t', req({ '{app="a"}': [[1n, 'a']] }));
      await sut.flushAll();
      expect(sink.chunks).toHaveLength(1);
      expect(memory(sut)).toEqual(['{app="a"} 1 a']);
      clock += 30_000;
      await sut.flushCheck();
      expect(memory(sut)).toEqual([]);
      expect(sink.chunks).toHaveLength(1);
    });
  });

  describe('queries over memory', () => {
    async function seeded(): Promise<Ingester> {
      const sut = await start({ chunk_target_size: 30 });
      await sut.push(
        't',
        req({
          '{app="api", env="prod"}': [
            [10n, 'api-1'],
            [30n, 'api-3 is a longer line of text'],
          ],
          '{app="web", env="dev"}': [[20n, 'web-2']],
          '{app="db"}': [[HOUR, 'db-late']],
        }),
      );
      // Out of order into a new head chunk after the size cut: overlaps the closed chunk.
      await sut.push(
        't',
        req({
          '{app="api", env="prod"}': [
            [20n, 'api-2'],
            [10n, 'api-1'],
          ],
        }),
      );
      await sut.push('other', req({ '{app="api"}': [[10n, 'other tenant']] }));
      return sut;
    }

    it('returns matching streams with entries merged across chunks in either direction', async () => {
      const sut = await seeded();
      const stats = newQueryStats();
      const res = sut.query('t', [eq('app', 'api')], T0, T0 + 31n, 'backward', stats);
      expect(res).toHaveLength(1);
      expect(res[0].cursors.length).toBe(2);
      const lines: string[] = [];
      while (res[0].entries.next()) lines.push(res[0].entries.line.toString());
      expect(lines).toEqual(['api-3 is a longer line of text', 'api-2', 'api-1']);
      expect(stats.totalChunksMatched).toBe(2);
      expect(stats.headChunkLines).toBe(2);
    });

    it('keeps insertion order for entries sharing a timestamp across chunk cuts', async () => {
      // Millisecond-stamped clients send many lines per timestamp; "miss 10" sorts before "miss 7".
      const sut = await start({ chunk_target_size: 40 });
      const misses = Array.from({ length: 20 }, (_, i) => `cache miss ${i}`);
      for (const line of misses) await sut.push('t', req({ '{app="a"}': [[5n, line]] }));
      // A copy of an entry of an older chunk lands in the head: stored, merged away on read.
      await sut.push('t', req({ '{app="a"}': [[5n, 'cache miss 3']] }));
      const read = (direction: 'forward' | 'backward') => {
        const [s] = sut.query('t', [eq('app', 'a')], T0, T0 + 6n, direction);
        expect(s.cursors.length).toBeGreaterThan(2);
        const lines: string[] = [];
        while (s.entries.next()) lines.push(s.entries.line.toString());
        return lines;
      };
      expect(read('forward')).toEqual(misses);
      expect(read('backward')).toEqual([...misses].reverse());
    });

    it('filters by time range and regex matchers (fully anchored)', async () => {
      const sut = await seeded();
      const re = (type: '=~' | '!~', value: string): Matcher => ({ type, name: 'app', value });
      expect(memory(sut, 't', [re('=~', 'a')])).toEqual([]);
      expect(sut.series('t', [[re('=~', 'api|web')]], T0, T0 + HOUR).map(labelsToString)).toEqual([
        '{app="api", env="prod"}',
        '{app="web", env="dev"}',
      ]);
      expect(sut.series('t', [[re('!~', 'api|web')]], T0, T0 + HOUR)).toEqual([]);
      expect(
        sut.series('t', [[re('!~', 'api|web')]], T0, T0 + HOUR + 1n).map(labelsToString),
      ).toEqual(['{app="db"}']);
      expect(sut.series('t', [[eq('env', '')]], T0, T0 + 2n * HOUR).map(labelsToString)).toEqual([
        '{app="db"}',
      ]);
      expect(sut.series('t', [], T0 + 21n, T0 + HOUR)).toHaveLength(1);
    });

    it('answers label names and values for the tenant only', async () => {
      const sut = await seeded();
      const all = { fromNs: T0, throughNs: T0 + 2n * HOUR };
      expect(sut.labelNames('t', all)).toEqual(['app', 'env']);
      expect(sut.labelValues('t', 'app', all)).toEqual(['api', 'db', 'web']);
      expect(sut.labelValues('t', 'env', { ...all, matchers: [eq('app', 'web')] })).toEqual([
        'dev',
      ]);
      // Every stream in memory counts, whatever the range (Loki's ingester answers so too).
      expect(sut.labelNames('t', { fromNs: T0 + 5n * HOUR, throughNs: T0 + 6n * HOUR })).toEqual([
        'app',
        'env',
      ]);
      expect(sut.labelValues('other', 'app', all)).toEqual(['api']);
      expect(sut.labelNames('nobody', all)).toEqual([]);
    });

    it('tells append listeners about stored entries only', async () => {
      const sut = await start();
      const seen: string[] = [];
      const off = sut.onAppend((tenant, labels: Labels, entries) => {
        for (const e of entries) seen.push(`${tenant} ${labelsToString(labels)} ${e.line}`);
      });
      await sut.push(
        't',
        req({
          '{app="a"}': [
            [5n * HOUR, 'x'],
            [5n * HOUR, 'x'],
            [1n, 'too old'],
          ],
        }),
      );
      off();
      await sut.push('t', req({ '{app="a"}': [[5n * HOUR, 'y']] }));
      expect(seen).toEqual(['t {app="a"} x']);
    });

    it('tells an append listener only of the tenants it is interested in', async () => {
      const sut = await start();
      const seen: string[] = [];
      const listenerOf =
        (name: string) => (tenant: string, _labels: Labels, entries: readonly LogEntry[]) =>
          seen.push(...entries.map((e) => `${name}: ${tenant} ${e.line}`));
      sut.onAppend(listenerOf('only a'), (tenant) => tenant === 'a');
      sut.onAppend(listenerOf('only b'), (tenant) => tenant === 'b');
      await sut.push('a', req({ '{app="x"}': [[1n, 'to a']] }));
      await sut.push('b', req({ '{app="x"}': [[1n, 'to b']] }));
      await sut.push('c', req({ '{app="x"}': [[1n, 'to c']] }));
      expect(seen).toEqual(['only a: a to a', 'only b: b to b']);
      expect(memory(sut, 'b')).toEqual(['{app="x"} 1 to b']);
    });
  });

  describe('stream memos', () => {
    /** A push of one stream that carries `memo`, as validated pushes do. */
    function memoPush(memo: StreamMemo, ts: bigint, line: string): PushRequest {
      const [stream] = req({ '{app="a"}': [[ts, line]] }).streams;
      return { streams: [{ ...stream, labelsText: '{app="a"}', memo }] };
    }

    it('finds the stream a memo remembers, and a new one once the stream left memory', async () => {
      const sut = await start({ chunk_idle_period: 1_000 });
      const memo: StreamMemo = { key: null, value: undefined };
      await sut.push('t', memoPush(memo, 1n, 'one'));
      await sut.push('t', memoPush(memo, 2n, 'two'));
      expect(memory(sut, 't', [eq('app', 'a')])).toEqual(['{app="a"} 1 one', '{app="a"} 2 two']);
      // {app="a"} goes idle, is flushed and leaves memory; {app="b"} keeps the tenant there.
      clock += 2_000;
      await sut.push('t', req({ '{app="b"}': [[1n, 'b']] }));
      await sut.flushCheck();
      await sut.flushCheck();
      expect(sut.streamCount).toBe(1);
      await sut.push('t', memoPush(memo, 3n, 'three'));
      expect(sut.streamCount).toBe(2);
      expect(memory(sut, 't', [eq('app', 'a')])).toEqual(['{app="a"} 3 three']);
      expect(sut.metrics().streams_created_total).toBe(3);
    });

    it('stores every stream of a push of many, known and new, each in its own stream', async () => {
      // More streams than the instance reads ahead at once, so the push crosses several groups;
      // tiny blocks, so some head blocks are cut between the read-ahead and the append.
      const sut = await start({ chunk_block_size: 64 });
      const memos = Array.from({ length: 100 }, (): StreamMemo => ({
        key: null,
        value: undefined,
      }));
      const push = (ts: bigint, streams: number[]): PushRequest => ({
        streams: streams.map((i) => {
          const labelsText = `{app="s${i}"}`;
          const [stream] = req({ [labelsText]: [[ts, `line ${ts} of ${i}`]] }).streams;
          return { ...stream, labelsText, memo: memos[i] };
        }),
      });
      const evens = Array.from({ length: 50 }, (_, k) => 2 * k);
      await sut.push('t', push(1n, evens));
      // Known streams (the evens) between new ones (the odds), in one push.
      await sut.push(
        't',
        push(
          2n,
          Array.from({ length: 100 }, (_, i) => i),
        ),
      );
      const expected = Array.from({ length: 100 }, (_, i) => [
        ...(i % 2 === 0 ? [`{app="s${i}"} 1 line 1 of ${i}`] : []),
        `{app="s${i}"} 2 line 2 of ${i}`,
      ]).flat();
      expect(memory(sut).sort()).toEqual(expected.sort());
      expect(sut.streamCount).toBe(100);
    });

    it("never stores a tenant's entries in another tenant's stream through a shared memo", async () => {
      const sut = await start();
      const memo: StreamMemo = { key: null, value: undefined };
      await sut.push('t', memoPush(memo, 1n, 'for t'));
      await sut.push('u', memoPush(memo, 2n, 'for u'));
      await sut.push('t', memoPush(memo, 3n, 'for t again'));
      expect(memory(sut, 't')).toEqual(['{app="a"} 1 for t', '{app="a"} 3 for t again']);
      expect(memory(sut, 'u')).toEqual(['{app="a"} 2 for u']);
    });
  });

  describe('write-ahead log', () => {
    it('replays every acknowledged entry exactly once, across a checkpoint and new pushes', async () => {
      const first = await start({ chunk_target_size: 12 });
      const pushes: Promise<unknown>[] = [];
      for (let i = 0; i < 200; i++) {
        pushes.push(first.push('t', req({ [`{s="${i % 7}"}`]: [[BigInt(i), `e${i}`]] })));
        if (i === 100) pushes.push(first.checkpoint());
      }
      await Promise.all(pushes);
      await first.push('u', req({ '{s="x"}': [[1n, 'after checkpoint']] }));
      // No shutdown: the process "dies" here.
      die(first);
      const second = await start({ chunk_target_size: 12 });
      const expected = memory(first).sort();
      expect(expected).toHaveLength(200);
      expect(memory(second).sort()).toEqual(expected);
      expect(memory(second, 'u')).toEqual(['{s="x"} 1 after checkpoint']);
      // A client re-sending its last acknowledged batch after the crash stores nothing new.
      const again = await second.push('t', req({ '{s="3"}': [[199n, 'e199']] }));
      expect(again.appended).toBe(0);
      expect(again.duplicates).toBe(1);
      await second.push('t', req({ '{s="3"}': [[500n, 'new']] }));
      await second.checkpoint();
      die(second);
      const third = await start({ chunk_target_size: 12 });
      expect(memory(third).sort()).toEqual([...expected, '{s="3"} 500 new'].sort());
      // Queries merge away copies, so also check the flushed chunks hold each entry once.
      await third.flushAll();
      expect(
        sink
          .decodedEntries()
          .filter((e) => !e.includes('after checkpoint'))
          .sort(),
      ).toEqual([...expected, '{s="3"} 500 new'].sort());
    });

    it('replays entries sharing a timestamp in insertion order, from checkpoint and WAL', async () => {
      const misses = Array.from({ length: 24 }, (_, i) => `cache miss ${i}`);
      const first = await start({ chunk_target_size: 60 });
      for (const line of misses.slice(0, 12)) {
        await first.push('t', req({ '{app="a"}': [[5n, line]] }));
      }
      await first.checkpoint();
      await first.push(
        't',
        req({ '{app="a"}': misses.slice(12).map((l): [bigint, string] => [5n, l]) }),
      );
      die(first);
      const second = await start({ chunk_target_size: 60 });
      const expected = misses.map((l) => `{app="a"} 5 ${l}`);
      expect(memory(first)).toEqual(expected);
      expect(memory(second)).toEqual(expected);
    });

    it('does not replay data that was flushed before the last checkpoint', async () => {
      const first = await start();
      await first.push('t', req({ '{app="a"}': [[1n, 'flushed']] }));
      await first.flushAll();
      await first.push('t', req({ '{app="a"}': [[2n, 'not flushed']] }));
      await first.checkpoint();
      die(first);
      const second = await start();
      expect(memory(second)).toEqual(['{app="a"} 2 not flushed']);
      expect(sink.decodedEntries()).toEqual(['{app="a"} 1 flushed']);
    });

    it('flushes everything on shutdown with flush, after which nothing is replayed', async () => {
      const first = await start();
      await first.push('t', req({ '{app="a"}': [[1n, 'a']], '{app="b"}': [[2n, 'b']] }));
      await first.shutdown({ flush: true });
      await expect(first.push('t', req({ '{app="a"}': [[3n, 'c']] }))).rejects.toBeInstanceOf(
        IngesterStoppedError,
      );
      expect(sink.decodedEntries().sort()).toEqual(['{app="a"} 1 a', '{app="b"} 2 b']);
      const second = await start();
      expect(memory(second)).toEqual([]);
    });

    it('restores chunks that were closed but not flushed from the checkpoint', async () => {
      const first = await start({ chunk_target_size: 10 });
      await first.push(
        't',
        req({
          '{app="a"}': [
            [1n, 'a long enough line'],
            [2n, 'b'],
          ],
        }),
      );
      await first.checkpoint();
      die(first);
      const second = await start({ chunk_target_size: 10 });
      expect(memory(second)).toEqual(['{app="a"} 1 a long enough line', '{app="a"} 2 b']);
      await second.flushAll();
      expect(sink.decodedEntries()).toEqual(['{app="a"} 1 a long enough line', '{app="a"} 2 b']);
    });

    it('checkpoints open blocks uncompressed and restores them taking appends, in order or not', async () => {
      const withMetadata = (ts: bigint, line: string): PushRequest => ({
        streams: [
          {
            labels: parseLabels('{app="meta"}'),
            entries: [
              {
                timestampNs: T0 + ts,
                line: Buffer.from(line),
                structuredMetadata: Object.freeze([{ name: 'trace', value: `t${ts}` }]),
              },
            ],
          },
        ],
      });
      // Small blocks: the in-order stream has cut blocks besides its open one.
      const config = { chunk_block_size: 64, chunk_target_size: 1 << 20 };
      const first = await start(config);
      for (let i = 0; i < 12; i++) {
        await first.push('t', req({ '{app="inorder"}': [[BigInt(i), `in order line ${i}`]] }));
      }
      await first.push(
        't',
        req({
          '{app="late"}': [
            [5n, 'five'],
            [3n, 'three'],
            [4n, 'four'],
          ],
        }),
      );
      for (const i of [1n, 2n]) await first.push('t', withMetadata(i, `with metadata ${i}`));
      const expected = memory(first);
      await first.shutdown({ flush: false });
      const checkpoint = (await readdir(dir)).find((n) => n.startsWith('checkpoint.'))!;
      const buf = await readFile(join(dir, checkpoint));
      // In time order, the open block is written as it is; out of order, compressed in a chunk.
      const heads: string[] = [];
      for (let frame = readFrame(buf, 0); frame !== null && 'payload' in frame;) {
        const rec = decodeCheckpointRecord(frame.payload);
        if (rec.type === RecordType.CheckpointStreamParts) {
          const { labelsText, headParts, headChunk } = rec.stream;
          const blocks = headParts?.blocks ? ' with blocks' : '';
          heads.push(
            `${labelsText} ${headParts ? `parts${blocks}` : headChunk ? 'chunk' : 'none'}`,
          );
        }
        frame = readFrame(buf, frame.next);
      }
      expect(heads.sort()).toEqual([
        '{app="inorder"} parts with blocks',
        '{app="late"} chunk',
        '{app="meta"} parts',
      ]);

      const second = await start(config);
      expect(memory(second)).toEqual(expected);
      expect(
        second.query('t', [eq('app', 'meta')], 0n, 2n ** 62n, 'forward').flatMap((s) => {
          const out: string[] = [];
          while (s.entries.next()) {
            out.push(s.entries.structuredMetadata.map((p) => `${p.name}=${p.value}`).join());
          }
          return out;
        }),
      ).toEqual(['trace=t1', 'trace=t2']);
      // Copies of restored entries, in the open block or the block cut before it, are refused.
      const copies = await second.push(
        't',
        req({
          '{app="inorder"}': [
            [11n, 'in order line 11'],
            [7n, 'in order line 7'],
          ],
        }),
      );
      expect(copies).toMatchObject({ appended: 0, duplicates: 2 });
      expect((await second.push('t', req({ '{app="late"}': [[4n, 'four']] }))).duplicates).toBe(1);
      await second.push('t', req({ '{app="inorder"}': [[12n, 'in order line 12']] }));
      await second.push('t', req({ '{app="late"}': [[1n, 'one']] }));
      await second.push('t', withMetadata(3n, 'with metadata 3'));
      const after = memory(second);
      expect(after).toHaveLength(expected.length + 3);
      await second.flushAll();
      expect(sink.decodedEntries().sort()).toEqual([...after].sort());
    });

    it('acknowledges a copy of an entry still in flight only once the original is on disk', async () => {
      const fs = new FaultyWalFs();
      const sut = await start({}, { walFs: fs });
      fs.stall();
      const first = sut.push('t', req({ '{app="a"}': [[1n, 'x']] }));
      const acked: string[] = [];
      const second = sut.push('t', req({ '{app="a"}': [[1n, 'x']] })).then((o) => {
        acked.push('second');
        return o;
      });
      await new Promise((r) => setTimeout(r, 30));
      expect(acked).toEqual([]);
      fs.release();
      expect((await first).appended).toBe(1);
      expect(await second).toMatchObject({ appended: 0, duplicates: 1 });
    });

    it('fails a copy of an entry whose WAL record failed, and keeps neither in memory', async () => {
      const fs = new FaultyWalFs();
      const sut = await start({}, { walFs: fs });
      await sut.push('t', req({ '{app="a"}': [[1n, 'kept']] }));
      fs.stall();
      const first = sut.push('t', req({ '{app="a"}': [[2n, 'x']], '{app="new"}': [[2n, 'y']] }));
      const second = sut.push('t', req({ '{app="a"}': [[2n, 'x']] }));
      fs.full = true;
      fs.release();
      await expect(first).rejects.toBeInstanceOf(WalWriteError);
      await expect(second).rejects.toBeInstanceOf(WalWriteError);
      expect(memory(sut)).toEqual(['{app="a"} 1 kept']);
      expect(sut.labelValues('t', 'app', { fromNs: 0n, throughNs: 2n ** 62n })).toEqual(['a']);
      expect(sut.metrics()).toMatchObject({ memory_streams: 1, streams_created_total: 1 });
      // Once space returns, the client's retry stores the entry with a record of its own.
      fs.full = false;
      expect((await sut.push('t', req({ '{app="a"}': [[2n, 'x']] }))).appended).toBe(1);
      die(sut);
      const again = await start({}, { walFs: fs });
      expect(memory(again)).toEqual(['{app="a"} 1 kept', '{app="a"} 2 x']);
    });

    it('rolls back a failed push from the chunks it filled, and tail never sees it', async () => {
      const fs = new FaultyWalFs();
      const sut = await start({ chunk_target_size: 12 }, { walFs: fs });
      await sut.push('t', req({ '{app="a"}': [[1n, 'kept line']] }));
      const seen: string[] = [];
      sut.onAppend((_t, _l, entries) => seen.push(...entries.map((e) => e.line.toString())));
      fs.full = true;
      const lines: [bigint, string][] = Array.from({ length: 30 }, (_, i) => [
        BigInt(10 + i),
        `failed ${i}`,
      ]);
      await expect(sut.push('t', req({ '{app="a"}': lines }))).rejects.toBeInstanceOf(
        WalWriteError,
      );
      expect(memory(sut)).toEqual(['{app="a"} 1 kept line']);
      expect(seen).toEqual([]);
      expect(sut.metrics().entries_appended_total).toBe(1);
      fs.full = false;
      // Ordering state is back too: an entry older than the failed ones is in order again.
      const later = await sut.push('t', req({ '{app="a"}': [[5n, 'after']] }));
      expect(later).toMatchObject({ appended: 1, errors: [] });
      expect(seen).toEqual(['after']);
    });

    it('flushes no chunk before the WAL record of its entries is on disk', async () => {
      const fs = new FaultyWalFs();
      const sut = await start({ chunk_target_size: 12 }, { walFs: fs });
      const lines = (from: number): [bigint, string][] =>
        Array.from({ length: 20 }, (_, i) => [BigInt(from + i), `line ${from + i}`]);
      fs.stall();
      const failed = sut.push('t', req({ '{app="a"}': lines(10) }));
      await fs.untilStalled();
      await sut.flushCheck();
      expect(sink.chunks).toEqual([]);
      fs.full = true;
      fs.release();
      await expect(failed).rejects.toBeInstanceOf(WalWriteError);
      await sut.flushAll();
      // The store never saw entries whose push was answered with an error.
      expect(sink.chunks).toEqual([]);

      fs.full = false;
      fs.stall();
      const stored = sut.push('t', req({ '{app="a"}': lines(10) }));
      await fs.untilStalled();
      await sut.flushCheck();
      expect(sink.chunks).toEqual([]);
      fs.release();
      await stored;
      await sut.flushCheck();
      expect(sink.chunks.length).toBeGreaterThan(0);
      await sut.flushAll();
      expect(sink.decodedEntries()).toEqual(lines(10).map(([ts, l]) => `{app="a"} ${ts} ${l}`));
    });

    it('keeps exactly the acknowledged entries of twice-sent batches, retried through a full disk, after a crash', async () => {
      const fs = new FaultyWalFs();
      const sut = await start({ chunk_target_size: 64 }, { walFs: fs });
      const acked = new Set<string>();
      const refused: string[] = [];
      /** One client's copy of a batch: pushed until it is acknowledged, as agents retry. */
      const send = async (entries: [bigint, string][]): Promise<void> => {
        for (;;) {
          try {
            await sut.push('t', req({ '{app="a"}': entries }));
            for (const [ts, line] of entries) acked.add(`{app="a"} ${ts} ${line}`);
            return;
          } catch (err) {
            expect(err).toBeInstanceOf(WalWriteError);
            refused.push(entries[0][1]);
          }
        }
      };
      for (let b = 0; b < 12; b++) {
        const entries = Array.from({ length: 5 }, (_, i): [bigint, string] => [
          BigInt(b * 5 + i),
          `b${b} e${i}`,
        ]);
        // Both copies arrive while the first one's record waits for its fsync; every third
        // batch, the disk is full when that fsync comes.
        fs.stall();
        const copies = Promise.all([send(entries), send(entries)]);
        await fs.untilStalled();
        fs.release(b % 3 === 1 ? 'enospc' : 'sync');
        await copies;
      }
      // Each failed batch was refused to both copies, then stored by a retry.
      expect(refused).toEqual([
        'b1 e0',
        'b1 e0',
        'b4 e0',
        'b4 e0',
        'b7 e0',
        'b7 e0',
        'b10 e0',
        'b10 e0',
      ]);
      die(sut);
      const again = await start({ chunk_target_size: 64 });
      expect(new Set(memory(again))).toEqual(acked);
      expect(acked.size).toBe(60);
    });

    it('replays a snappy push recorded with its body, lines found again by their offsets', async () => {
      const first = await start();
      const lines: [bigint, string][] = Array.from({ length: 40 }, (_, i) => [
        BigInt(i),
        `GET /api/v1/orders/${i % 7} 200 ${'rt=0.012 '.repeat(4)}`,
      ]);
      const push = await asReceived(req({ '{app="a"}': lines, '{app="b"}': [[1n, 'b line']] }));
      expect(push.source).toBeDefined();
      await first.push('t', push);
      // What the records hold: the received body, a few times smaller than the lines.
      const types = await recordTypes(dir);
      expect(types).toContain(RecordType.PushRefsBody);
      die(first);
      const second = await start();
      expect(memory(second)).toEqual([
        ...lines.map(([ts, line]) => `{app="a"} ${ts} ${line}`),
        '{app="b"} 1 b line',
      ]);
    });

    it('takes a failed body record back out of memory', async () => {
      const fs = new FaultyWalFs();
      const sut = await start({}, { walFs: fs });
      await sut.push('t', req({ '{app="a"}': [[1n, 'kept']] }));
      fs.full = true;
      const lines: [bigint, string][] = Array.from({ length: 30 }, (_, i) => [
        BigInt(10 + i),
        `failed ${'x'.repeat(40)}`,
      ]);
      const push = await asReceived(req({ '{app="a"}': lines, '{app="new"}': [[2n, 'y']] }));
      await expect(sut.push('t', push)).rejects.toBeInstanceOf(WalWriteError);
      expect(memory(sut)).toEqual(['{app="a"} 1 kept']);
      expect(sut.metrics()).toMatchObject({ memory_streams: 1 });
    });

    it('works with the WAL disabled', async () => {
      const sut = await start({ wal: { enabled: false, dir, checkpoint_duration: 0 } });
      await sut.push('t', req({ '{app="a"}': [[1n, 'a']] }));
      expect(memory(sut)).toEqual(['{app="a"} 1 a']);
      expect(sut.metrics().wal_records).toBe(0);
    });
  });
});
