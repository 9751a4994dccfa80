import { EMPTY_LABELS, labelsToString, type PushRequest } from '@logsvc/api';
import {
  ADMIT_ALL,
  IngestError,
  IngesterStoppedError,
  NoIngesterError,
  WalWriteError,
  type IngesterClient,
  type PushOutcome,
  type StreamAdmission,
  type StreamAdmissionSource,
} from '@logsvc/ingester';
import { DEFAULT_PUSH_LIMITS, encodePushProtobuf, type PushLimits } from '@logsvc/push';
import { describe, expect, it } from 'vitest';
import { Distributor } from './distributor';
import type { DistributorMetricsSink } from './metrics-sink';
import type { PushInput } from './push-input';

const NOW_MS = 1_700_000_000_000;
const TS = String(BigInt(NOW_MS) * 1_000_000n);

/** An ingester that records what it was given and answers with the refusals it is told to. */
class FakeIngester implements Pick<IngesterClient, 'push'>, StreamAdmissionSource {
  readonly received: string[] = [];
  refusals: IngestError[] = [];
  failure: Error | undefined;
  admission: StreamAdmission = ADMIT_ALL;
  calls = 0;
  /** Per call: whether the request came with its body (see `PushRequest.source`). */
  readonly withBody: boolean[] = [];

  push(_tenant: string, request: PushRequest): Promise<PushOutcome> {
    this.calls++;
    this.withBody.push(request.source !== undefined);
    if (this.failure) return Promise.reject(this.failure);
    for (const s of request.streams) {
      for (const e of s.entries) this.received.push(`${labelsToString(s.labels)} ${e.line}`);
    }
    return Promise.resolve({ appended: 0, appendedBytes: 0, duplicates: 0, errors: this.refusals });
  }

  streamAdmission(): Promise<StreamAdmission> {
    return Promise.resolve(this.admission);
  }
}

/** Discards by reason, as `loki_discarded_samples_total` would count them. */
class CountingMetrics implements DistributorMetricsSink {
  readonly discardedLines = new Map<string, number>();
  receivedLines = 0;
  received(_t: string, lines: number): void {
    this.receivedLines += lines;
  }
  discarded(_t: string, reason: string, lines: number): void {
    this.discardedLines.set(reason, (this.discardedLines.get(reason) ?? 0) + lines);
  }
  truncated(): void {}
}

function setup(limits: Partial<PushLimits> = {}) {
  const ingester = new FakeIngester();
  const metrics = new CountingMetrics();
  const sut = new Distributor({
    // No discovered labels or levels: streams keep their labels, sizes are line lengths.
    limits: {
      forTenant: () => ({
        ...DEFAULT_PUSH_LIMITS,
        discover_log_levels: false,
        discover_service_name: [],
        ...limits,
      }),
    },
    ingester: ingester as unknown as IngesterClient,
    admission: ingester,
    metrics,
    maxRecvMsgSize: 1 << 20,
    now: () => NOW_MS,
  });
  return { sut, ingester, metrics };
}

/** A Loki JSON push of `lines` per stream selector. */
function push(streams: Record<string, string[]>): PushInput {
  const body = {
    streams: Object.entries(streams).map(([app, lines]) => ({
      stream: { s: app },
      values: lines.map((l) => [TS, l]),
    })),
  };
  return {
    tenant: 't',
    format: 'loki',
    body: Buffer.from(JSON.stringify(body)),
    contentType: 'application/json',
    contentEncoding: undefined,
  };
}

/** The same push as snappy protobuf, as Promtail sends it. */
function protobufPush(streams: Record<string, string[]>): PushInput {
  return {
    tenant: 't',
    format: 'loki',
    body: encodePushProtobuf({
      streams: Object.entries(streams).map(([app, lines]) => ({
        labels: [{ name: 's', value: app }],
        entries: lines.map((line) => ({
          timestampNs: BigInt(TS),
          line: Buffer.from(line),
          structuredMetadata: EMPTY_LABELS,
        })),
      })),
    }),
    contentType: 'application/x-protobuf',
    contentEncoding: undefined,
  };
}

const tooLong = (n: number, app: string) =>
  `Max entry size '10' bytes exceeded for stream '{s="${app}"}' while adding an entry with length '${n}' bytes`;

const outOfOrder = (app: string) =>
  new IngestError('bad_request', 'out_of_order', `out of order in {s="${app}"}`, 1, 3);
const streamLimit = (app: string) =>
  new IngestError('limit', 'stream_limit', `stream limit for {s="${app}"}`, 1, 3);

describe('Distributor', () => {
  it('stores valid pushes and resolves once the ingester took them', async () => {
    const { sut, ingester, metrics } = setup();
    await expect(sut.push(push({ a: ['one', 'two'] }))).resolves.toBeUndefined();
    expect(ingester.received).toEqual(['{s="a"} one', '{s="a"} two']);
    expect(metrics.receivedLines).toBe(2);
  });

  it('stores the valid streams of a partly invalid push, then answers the validation error', async () => {
    const { sut, ingester, metrics } = setup({ max_line_size: 10 });
    const answer = sut.push(push({ a: ['short'], b: ['x'.repeat(20)] }));
    await expect(answer).rejects.toMatchObject({ kind: 'bad_request', message: tooLong(20, 'b') });
    expect(ingester.received).toEqual(['{s="a"} short']);
    expect(metrics.discardedLines.get('line_too_long')).toBe(1);
  });

  it("answers an ingester refusal over the distributor's validation error", async () => {
    const { sut, ingester, metrics } = setup({ max_line_size: 10 });
    ingester.refusals = [streamLimit('a')];
    const err = await sut.push(push({ a: ['short'], b: ['x'.repeat(20)] })).catch((e) => e);
    expect(err).toMatchObject({ kind: 'limit', message: 'stream limit for {s="a"}' });
    expect(err.httpStatus).toBe(429);
    expect(metrics.discardedLines.get('stream_limit')).toBe(1);
    expect(metrics.discardedLines.get('line_too_long')).toBe(1);
  });

  it('answers the last of several ingester refusals, text and status, as Loki does', async () => {
    const { sut, ingester } = setup();
    ingester.refusals = [streamLimit('a'), outOfOrder('b')];
    const err = await sut.push(push({ a: ['1'], b: ['2'] })).catch((e) => e);
    expect(err.message).toBe('out of order in {s="b"}');
    expect(err.httpStatus).toBe(400);
    ingester.refusals = [outOfOrder('b'), streamLimit('a')];
    const other = await sut.push(push({ a: ['1'], b: ['2'] })).catch((e) => e);
    expect(other.httpStatus).toBe(429);
  });

  it('answers the tenant ingestion rate limit with 429 before reaching the ingester', async () => {
    const { sut, ingester, metrics } = setup({
      ingestion_rate_mb: 1 / (1 << 20),
      ingestion_burst_size_mb: 4 / (1 << 20),
      ingestion_rate_strategy: 'local',
    });
    const err = await sut.push(push({ a: ['12345'] })).catch((e) => e);
    expect(err).toMatchObject({
      kind: 'limit',
      message: `Ingestion rate limit exceeded for user t (limit: 1 bytes/sec) while attempting to ingest '1' lines totaling '5' bytes, reduce log volume or contact your Loki administrator to see if the limit can be increased`,
    });
    expect(ingester.received).toEqual([]);
    expect(metrics.discardedLines.get('rate_limited')).toBe(1);
  });

  it('answers a blocked tenant with its status code and counts the push as discarded', async () => {
    const { sut, ingester, metrics } = setup({
      block_ingestion_until: NOW_MS + 60_000,
      block_ingestion_status_code: 260,
    });
    const err = await sut.push(push({ a: ['1', '2'] })).catch((e) => e);
    expect(err.httpStatus).toBe(260);
    expect(err.message).toMatch(/^ingestion blocked for user t until '/);
    expect(ingester.received).toEqual([]);
    expect(metrics.discardedLines.get('blocked_ingestion')).toBe(2);
  });

  it('answers an undecodable body with 400 and stores nothing', async () => {
    const { sut, ingester } = setup();
    const input = { ...push({}), body: Buffer.from('{not json') };
    await expect(sut.push(input)).rejects.toMatchObject({ kind: 'bad_request' });
    expect(ingester.received).toEqual([]);
  });

  it('answers 503 when no ingester can take the push, and 500 when it could not store it', async () => {
    const { sut, ingester } = setup();
    ingester.failure = new NoIngesterError();
    const none = await sut.push(push({ a: ['1'] })).catch((e) => e);
    expect([none.httpStatus, none.message]).toEqual([
      503,
      'no ingester is running in this process to accept the push',
    ]);
    ingester.failure = new IngesterStoppedError('ingester is not running (stopping)');
    const stopped = await sut.push(push({ a: ['1'] })).catch((e) => e);
    expect([stopped.httpStatus, stopped.message]).toEqual([
      503,
      'ingester is not running (stopping)',
    ]);
    ingester.failure = new WalWriteError('fsync: EIO');
    const failed = await sut.push(push({ a: ['1'] })).catch((e) => e);
    expect([failed.httpStatus, failed.message]).toEqual([500, 'push not stored: fsync: EIO']);
  });

  describe('large pushes', () => {
    /** Admits the streams named, refusing the others as one stream-limit error. */
    function admitting(...apps: string[]): StreamAdmission {
      let refused = 0;
      let last = '';
      return {
        admit(labels, entries) {
          const labelsText = typeof labels === 'string' ? labels : labelsToString(labels);
          if (apps.some((a) => labelsText === `{s="${a}"}`)) return true;
          refused += entries.length;
          last = labelsText;
          return false;
        },
        refusal: () =>
          refused === 0
            ? undefined
            : new IngestError('limit', 'stream_limit', `stream limit for ${last}`, refused, 0),
      };
    }

    it('drops streams over the stream limits before they reach the ingester, answering 429', async () => {
      const { sut, ingester, metrics } = setup();
      ingester.admission = admitting('a');
      const err = await sut.push(push({ a: ['1'], b: ['2', '3'], c: ['4'] })).catch((e) => e);
      expect(ingester.received).toEqual(['{s="a"} 1']);
      expect(err).toMatchObject({ httpStatus: 429, message: 'stream limit for {s="c"}' });
      expect(metrics.discardedLines.get('stream_limit')).toBe(3);
    });

    it('answers the stream limit when nothing of a push is admitted, without calling the ingester', async () => {
      const { sut, ingester } = setup();
      ingester.admission = admitting();
      const err = await sut.push(push({ b: ['2'] })).catch((e) => e);
      expect(err).toMatchObject({ httpStatus: 429, message: 'stream limit for {s="b"}' });
      expect(ingester.calls).toBe(0);
    });

    it('stores a push of many streams in several ingester calls and answers after all', async () => {
      const { sut, ingester } = setup();
      const streams: Record<string, string[]> = {};
      for (let i = 0; i < 2_500; i++) streams[`s${i}`] = [`line ${i}`];
      await expect(sut.push(push(streams))).resolves.toBeUndefined();
      expect(ingester.calls).toBe(3);
      expect(ingester.received).toHaveLength(2_500);
      expect(ingester.received[2_499]).toBe('{s="s2499"} line 2499');
    });

    it('hands a snappy push its body along for the WAL, only when it goes in one call', async () => {
      const { sut, ingester } = setup();
      await sut.push(protobufPush({ a: ['one'], b: ['two'] }));
      await sut.push(push({ a: ['three'] }));
      const many: Record<string, string[]> = {};
      for (let i = 0; i < 1_500; i++) many[`s${i}`] = [`line ${i}`];
      await sut.push(protobufPush(many));
      // Snappy protobuf: yes; JSON: no; a push split over two calls: neither holds the body.
      expect(ingester.withBody).toEqual([true, false, false, false]);
      expect(ingester.received.slice(0, 3)).toEqual([
        '{s="a"} one',
        '{s="b"} two',
        '{s="a"} three',
      ]);
    });

    it('answers 500 when one batch of a large push could not be stored', async () => {
      const { sut, ingester } = setup();
      const streams: Record<string, string[]> = {};
      for (let i = 0; i < 1_500; i++) streams[`s${i}`] = ['x'];
      const original = ingester.push.bind(ingester);
      ingester.push = (tenant, request) =>
        ingester.calls === 1
          ? (ingester.calls++, Promise.reject(new WalWriteError('disk full')))
          : original(tenant, request);
      const err = await sut.push(push(streams)).catch((e) => e);
      expect(err).toMatchObject({ httpStatus: 500, message: 'push not stored: disk full' });
    });

    it('stores a stream of many entries in pieces, in order', async () => {
      const { sut, ingester } = setup();
      const lines = Array.from({ length: 25_000 }, (_, i) => `l${i}`);
      await expect(sut.push(push({ long: lines }))).resolves.toBeUndefined();
      expect(ingester.calls).toBe(2);
      expect(ingester.received).toEqual(lines.map((l) => `{s="long"} ${l}`));
    });
  });
});
