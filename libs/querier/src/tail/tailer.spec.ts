import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  EMPTY_LABELS,
  type Labels,
  type LogEntry,
  type ResultStream,
  labelsToString,
  parseLabels,
} from '@logsvc/api';
import type { IngesterClient, TailListener } from '@logsvc/ingester';
import { TailSlots } from './tail-slots';
import { MAX_DROPPED_PER_FRAME, Tailer, type TailerOptions } from './tailer';
import type { TailFrame, TailOutput, TailRequest } from './tail-types';

const MS = 1_000_000n;
const NOW_MS = 1_700_000_000_000;
const NOW_NS = BigInt(NOW_MS) * MS;

/** Ingesters whose live entries the test pushes by hand. */
class FakeTailIngesters {
  listener: TailListener | undefined;
  closed = 0;
  readonly client = {
    tail: async (_tenant: string, _matchers: unknown, onEntries: TailListener) => {
      this.listener = onEntries;
      return { close: () => this.closed++ };
    },
  } as unknown as IngesterClient;

  push(labels: string, ...entries: [bigint, string][]): void {
    const parsed = parseLabels(labels);
    const list: LogEntry[] = entries.map(([ts, line]) => ({
      timestampNs: ts,
      line: Buffer.from(line),
      structuredMetadata: EMPTY_LABELS,
    }));
    this.listener?.(parsed, list);
  }
}

/** Collects frames; `buffered` plays a client that has that much unread. */
class RecordingOutput implements TailOutput {
  readonly frames: TailFrame[] = [];
  failure: Error | undefined;
  buffered = 0;
  bufferedBytes(): number {
    return this.buffered;
  }
  send(frame: TailFrame): void {
    this.frames.push(frame);
  }
  fail(err: Error): void {
    this.failure = err;
  }
  lines(): string[] {
    return this.frames.flatMap((f) =>
      f.entries.map((e) => `${labelsToString(e.labels)} ${e.line}`),
    );
  }
}

const history =
  (streams: ResultStream[] = []) =>
  async () =>
    streams;

describe('Tailer', () => {
  let clock = NOW_MS;
  afterEach(() => {
    vi.useRealTimers();
    clock = NOW_MS;
  });

  function tailer(
    request: Partial<TailRequest>,
    ingesters: FakeTailIngesters,
    output: RecordingOutput,
    opts: Partial<TailerOptions> = {},
  ): Tailer {
    return new Tailer(
      { tenant: 't', query: '{app="a"}', startNs: 0n, limit: 100, delayForMs: 0, ...request },
      output,
      {
        ingesters: ingesters.client,
        history: history(),
        maxDurationMs: 0,
        now: () => clock,
        ...opts,
      },
    );
  }

  it('sends the past entries oldest first, then live ones through the pipeline', async () => {
    vi.useFakeTimers();
    const ingesters = new FakeTailIngesters();
    const out = new RecordingOutput();
    const labels: Labels = parseLabels('{app="a"}');
    const sut = tailer(
      { query: '{app="a"} |= "keep" | logfmt | line_format "{{.msg}}"' },
      ingesters,
      out,
      {
        history: history([
          {
            labels,
            entries: [
              [NOW_NS - 2n * MS, 'old 2'],
              [NOW_NS - 3n * MS, 'old 1'],
            ],
          },
        ]),
      },
    );
    await sut.start();
    expect(out.lines()).toEqual(['{app="a"} old 1', '{app="a"} old 2']);
    ingesters.push('{app="a"}', [NOW_NS - MS, 'keep msg=first'], [NOW_NS - MS, 'drop msg=x']);
    await vi.advanceTimersByTimeAsync(5);
    expect(out.lines().slice(2)).toEqual(['{app="a", msg="first"} first']);
    sut.close();
  });

  it('with categorized labels, sends stream labels alone and the others as categories', async () => {
    vi.useFakeTimers();
    const ingesters = new FakeTailIngesters();
    const out = new RecordingOutput();
    const labels: Labels = parseLabels('{app="a"}');
    const pastCategories = { parsed: parseLabels('{msg="old"}') };
    const sut = tailer(
      { query: '{app="a"} | logfmt | label_format app="b"', categorizeLabels: true },
      ingesters,
      out,
      { history: history([{ labels, entries: [[NOW_NS - 2n * MS, 'msg=old', pastCategories]] }]) },
    );
    await sut.start();
    ingesters.push('{app="a"}', [NOW_NS - MS, 'msg=new']);
    await vi.advanceTimersByTimeAsync(5);
    const sent = out.frames.flatMap((f) => f.entries);
    expect(sent.map((e) => [labelsToString(e.labels), e.line])).toEqual([
      ['{app="a"}', 'msg=old'],
      ['{}', 'msg=new'],
    ]);
    expect(sent[0].categories).toBe(pastCategories);
    // label_format moved `app` into the parsed labels: the stream keeps none.
    expect(sent[1].categories).toEqual({ parsed: parseLabels('{app="b", msg="new"}') });
    sut.close();
  });

  it('holds live entries until they are delay_for old and sends them in time order', async () => {
    vi.useFakeTimers();
    const ingesters = new FakeTailIngesters();
    const out = new RecordingOutput();
    const sut = tailer({ delayForMs: 2000 }, ingesters, out);
    await sut.start();
    ingesters.push('{app="a", pod="2"}', [NOW_NS, 'late pusher, earlier entry']);
    ingesters.push('{app="a", pod="1"}', [NOW_NS + 500n * MS, 'second']);
    ingesters.push('{app="a", pod="2"}', [NOW_NS - 100n * MS, 'first']);
    clock += 1000;
    await vi.advanceTimersByTimeAsync(1000);
    expect(out.lines()).toEqual([]);
    clock += 1500;
    await vi.advanceTimersByTimeAsync(1500);
    expect(out.lines()).toEqual([
      '{app="a", pod="2"} first',
      '{app="a", pod="2"} late pusher, earlier entry',
    ]);
    clock += 600;
    await vi.advanceTimersByTimeAsync(600);
    expect(out.lines().at(-1)).toBe('{app="a", pod="1"} second');
    sut.close();
  });

  it('drops entries while the client reads too slowly, reports them, and holds bounded memory', async () => {
    vi.useFakeTimers();
    const ingesters = new FakeTailIngesters();
    const out = new RecordingOutput();
    const limits = { maxBufferedBytes: 1000, maxPendingBytes: 10_000 };
    const sut = tailer({}, ingesters, out, { limits });
    await sut.start();
    out.buffered = 5000; // the client stopped reading
    const line = 'x'.repeat(200);
    for (let i = 0; i < 2000; i++) {
      ingesters.push('{app="a"}', [NOW_NS - 1000n * MS + BigInt(i), line]);
      expect(sut.heldBytes).toBeLessThanOrEqual(limits.maxPendingBytes);
    }
    await vi.advanceTimersByTimeAsync(5);
    expect(out.frames).toEqual([]);
    expect(sut.heldBytes).toBe(0);
    out.buffered = 0; // it reads again
    ingesters.push('{app="a"}', [NOW_NS - MS, 'after']);
    await vi.advanceTimersByTimeAsync(5);
    expect(out.frames).toHaveLength(1);
    expect(out.frames[0].entries.map((e) => e.line)).toEqual(['after']);
    const dropped = out.frames[0].dropped;
    expect(dropped).toHaveLength(MAX_DROPPED_PER_FRAME);
    expect(labelsToString(dropped[0].labels)).toBe('{app="a"}');
    sut.close();
  });

  it.each([
    ['formatted lines', '{app="a"} | line_format "{{ repeat 1000000 \\"x\\" }}"'],
    ['formatted labels', '{app="a"} | label_format x="{{ repeat 500000 \\"y\\" }}"'],
  ])('holds at most maxPendingBytes of %s from one push, dropping the rest', async (_, query) => {
    vi.useFakeTimers();
    const ingesters = new FakeTailIngesters();
    const out = new RecordingOutput();
    const limits = { maxBufferedBytes: 1 << 30, maxPendingBytes: 8 << 20 };
    const sut = tailer({ query, delayForMs: 2000 }, ingesters, out, { limits });
    await sut.start();
    const entries: [bigint, string][] = [];
    for (let i = 0; i < 200; i++) entries.push([NOW_NS + BigInt(i), `line ${i}`]);
    ingesters.push('{app="a"}', ...entries);
    expect(sut.heldBytes).toBeGreaterThan(0);
    expect(sut.heldBytes).toBeLessThanOrEqual(limits.maxPendingBytes);
    clock += 3000;
    await vi.advanceTimersByTimeAsync(3000);
    const sent = out.frames.flatMap((f) => f.entries).length;
    const dropped = out.frames.flatMap((f) => f.dropped).length;
    expect(sent).toBeLessThan(20);
    expect(sent + dropped).toBe(200);
    sut.close();
  });

  it('sends at most 100 entries per message', async () => {
    vi.useFakeTimers();
    const ingesters = new FakeTailIngesters();
    const out = new RecordingOutput();
    const sut = tailer({}, ingesters, out);
    await sut.start();
    const rows: [bigint, string][] = Array.from({ length: 250 }, (_, i) => [
      NOW_NS - 10n * MS + BigInt(i),
      `l${i}`,
    ]);
    ingesters.push('{app="a"}', ...rows);
    await vi.advanceTimersByTimeAsync(5);
    expect(out.frames.map((f) => f.entries.length)).toEqual([100, 100, 50]);
    sut.close();
  });

  it('does not send a live copy of an entry already sent as past', async () => {
    vi.useFakeTimers();
    const ingesters = new FakeTailIngesters();
    const out = new RecordingOutput();
    const labels = parseLabels('{app="a"}');
    const sut = tailer({}, ingesters, out, {
      history: history([{ labels, entries: [[NOW_NS - 5n * MS, 'both']] }]),
    });
    await sut.start();
    ingesters.push('{app="a"}', [NOW_NS - 5n * MS, 'both'], [NOW_NS - 4n * MS, 'new']);
    await vi.advanceTimersByTimeAsync(5);
    expect(out.lines()).toEqual(['{app="a"} both', '{app="a"} new']);
    sut.close();
  });

  it("refuses a metric query with the text of Loki's ingester", async () => {
    const out = new RecordingOutput();
    const ingesters = new FakeTailIngesters();
    const sut = tailer({ query: 'count_over_time({app="a"}[1m])' }, ingesters, out);
    await sut.start();
    expect(out.failure?.message).toBe('only log selector is supported');
    expect(sut.isClosed).toBe(true);
  });

  it("ends after tail_max_duration with Loki's text", async () => {
    vi.useFakeTimers();
    const out = new RecordingOutput();
    const ingesters = new FakeTailIngesters();
    const sut = tailer({}, ingesters, out, { maxDurationMs: 1000 });
    await sut.start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(out.failure?.message).toBe('reached tail max duration limit');
    expect(ingesters.closed).toBe(1);
  });

  it('close ends the subscription, its timers and what it holds', async () => {
    vi.useFakeTimers();
    const ingesters = new FakeTailIngesters();
    const out = new RecordingOutput();
    const sut = tailer({ delayForMs: 5000 }, ingesters, out, { maxDurationMs: 60_000 });
    await sut.start();
    ingesters.push('{app="a"}', [NOW_NS, 'waiting']);
    expect(sut.heldBytes).toBeGreaterThan(0);
    sut.close();
    expect(ingesters.closed).toBe(1);
    expect(sut.heldBytes).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    ingesters.push('{app="a"}', [NOW_NS, 'after close']);
    expect(sut.heldBytes).toBe(0);
  });
});

describe('TailSlots', () => {
  it("refuses the tenant's tail over the limit with Loki's text, and frees slots once", () => {
    const slots = new TailSlots();
    const release = Array.from({ length: 10 }, () => slots.acquire('t', 10));
    expect(() => slots.acquire('t', 10)).toThrow(
      'max concurrent tail requests limit exceeded, count > limit (11 > 10)',
    );
    expect(slots.acquire('other', 10)).toBeTypeOf('function');
    release[0]();
    release[0]();
    expect(slots.count('t')).toBe(9);
    expect(() => slots.acquire('t', 10)).not.toThrow();
  });
});
