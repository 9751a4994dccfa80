import { appendFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_LABELS, type LogEntry } from '@logsvc/api';
import { SILENT_LOGGER, type IngesterLogger } from '../logger';
import { newCounters, type IngesterCounters } from '../metrics';
import { uvarintSize } from './codec';
import { segmentPath } from './files';
import { allocFrame, bytesSize, RecordType, sealFrame, stringSize } from './frame';
import { encodePushRecordV1 } from './push-record-v1';
import { encodeCheckpointStream, type CheckpointStream, type DecodedPushStream } from './records';
import { Wal, type ReplayTarget } from './wal';

interface Replayed {
  checkpoint: CheckpointStream[];
  pushes: { seq: number; tenant: string; streams: DecodedPushStream[] }[];
}

function collector(): ReplayTarget & Replayed {
  const out: Replayed = { checkpoint: [], pushes: [] };
  return Object.assign(out, {
    restoreStream: (s: CheckpointStream) => out.checkpoint.push(s),
    replayPush: (seq: number, tenant: string, streams: DecodedPushStream[]) =>
      out.pushes.push({ seq, tenant, streams }),
  });
}

function entry(ts: number, line: string, sm = EMPTY_LABELS): LogEntry {
  return { timestampNs: BigInt(ts), line: Buffer.from(line), structuredMetadata: sm };
}

const labels = (s: string): Buffer => Buffer.from(s);

describe('Wal', () => {
  let dir: string;
  let counters: IngesterCounters;
  const warnings: string[] = [];
  const logger: IngesterLogger = { ...SILENT_LOGGER, warn: (_f, m) => warnings.push(m) };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wal-spec-'));
    counters = newCounters();
    warnings.length = 0;
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function openReplayed(segmentSize?: number): Promise<{ sut: Wal; replayed: Replayed }> {
    const sut = await Wal.open({ dir, logger, counters, segmentSize });
    const replayed = collector();
    await sut.replay(replayed);
    return { sut, replayed };
  }

  it('replays appended records with their tenant, labels, entries and metadata', async () => {
    const { sut } = await openReplayed();
    const sm = [{ name: 'trace_id', value: 'abc' }];
    await sut.append('t1', [
      { labelsText: labels('{app="a"}'), entries: [entry(1, 'one', sm), entry(2, 'two')] },
    ]);
    await sut.append('tenant-2', [{ labelsText: labels('{app="é"}'), entries: [entry(-5, '')] }]);
    await sut.close();

    const { sut: again, replayed } = await openReplayed();
    expect(replayed.pushes.map((p) => p.tenant)).toEqual(['t1', 'tenant-2']);
    const first = replayed.pushes[0].streams[0];
    expect(first.labelsText).toBe('{app="a"}');
    expect(
      first.entries.map((e) => [e.timestampNs, e.line.toString(), e.structuredMetadata]),
    ).toEqual([
      [1n, 'one', sm],
      [2n, 'two', []],
    ]);
    expect(replayed.pushes[1].streams[0].labelsText).toBe('{app="é"}');
    expect(replayed.pushes[1].streams[0].entries[0].timestampNs).toBe(-5n);
    expect(replayed.pushes[1].seq).toBeGreaterThan(replayed.pushes[0].seq);
    // Sequence numbers keep growing across restarts.
    expect(again.nextSeq).toBeGreaterThan(replayed.pushes[1].seq);
    await again.close();
  });

  it('replays a segment of older type 1 records before the records appended after it', async () => {
    const sm = [{ name: 'detected_level', value: 'info' }];
    const old = encodePushRecordV1(3, 't', [
      { labelsText: labels('{a="b"}'), entries: [entry(1, 'old', sm)] },
    ]);
    await writeFile(segmentPath(dir, 1), old);
    const { sut } = await openReplayed();
    expect(sut.nextSeq).toBe(4);
    await sut.append('t', [{ labelsText: labels('{a="b"}'), entries: [entry(2, 'new', sm)] }]);
    await sut.close();

    const { sut: again, replayed } = await openReplayed();
    expect(
      replayed.pushes.map((p) => [
        p.seq,
        p.streams[0].entries[0].line.toString(),
        p.streams[0].entries[0].structuredMetadata,
      ]),
    ).toEqual([
      [3, 'old', sm],
      [4, 'new', sm],
    ]);
    await again.close();
  });

  it('batches concurrent appends into few fsyncs and resolves every one', async () => {
    const { sut } = await openReplayed();
    const n = 500;
    const appends = Array.from({ length: n }, (_, i) =>
      sut.append('t', [{ labelsText: labels('{a="b"}'), entries: [entry(i, `line ${i}`)] }]),
    );
    await Promise.all(appends);
    expect(counters.wal_records).toBe(n);
    expect(counters.wal_fsyncs).toBeGreaterThanOrEqual(1);
    expect(counters.wal_fsyncs).toBeLessThan(n / 10);
    await sut.close();
    const { replayed } = await openReplayed();
    expect(replayed.pushes).toHaveLength(n);
  });

  it('drops a torn last record, keeps the ones before it and truncates the segment', async () => {
    const { sut } = await openReplayed();
    for (let i = 0; i < 3; i++) {
      await sut.append('t', [{ labelsText: labels('{a="b"}'), entries: [entry(i, `l${i}`)] }]);
    }
    await sut.close();
    const segment = join(dir, (await readdir(dir)).sort()[0]);
    const goodSize = (await stat(segment)).size;
    // A record header promising 100 bytes followed by only 5 of them.
    const torn = Buffer.alloc(13);
    torn.writeUInt32LE(100, 0);
    await appendFile(segment, torn);

    const { sut: again, replayed } = await openReplayed();
    expect(replayed.pushes.map((p) => p.streams[0].entries[0].line.toString())).toEqual([
      'l0',
      'l1',
      'l2',
    ]);
    expect((await stat(segment)).size).toBe(goodSize);
    expect(counters.wal_corruptions_total).toBe(1);
    expect(warnings[0]).toMatch(/torn or corrupt/);
    await again.close();
  });

  it('stops at a record whose CRC does not match', async () => {
    const { sut } = await openReplayed();
    await sut.append('t', [{ labelsText: labels('{a="b"}'), entries: [entry(1, 'good')] }]);
    await sut.close();
    const segment = join(dir, (await readdir(dir)).sort()[0]);
    const { size } = await stat(segment);
    const { sut: second } = await openReplayed();
    await second.append('t', [{ labelsText: labels('{a="b"}'), entries: [entry(2, 'bad')] }]);
    await second.close();
    // Flip one payload byte of the second segment's record.
    const names = (await readdir(dir)).sort();
    const second0 = join(dir, names[names.length - 1]);
    const buf = await readFile(second0);
    buf[buf.length - 1] ^= 0xff;
    await writeFile(second0, buf);

    const { sut: third, replayed } = await openReplayed();
    expect(replayed.pushes.map((p) => p.streams[0].entries[0].line.toString())).toEqual(['good']);
    expect((await stat(segment)).size).toBe(size);
    expect((await stat(second0)).size).toBe(0);
    await third.close();
  });

  it('rotates segments by size', async () => {
    const { sut } = await openReplayed(1024);
    for (let i = 0; i < 20; i++) {
      await sut.append('t', [
        { labelsText: labels('{a="b"}'), entries: [entry(i, 'x'.repeat(200))] },
      ]);
    }
    await sut.close();
    expect((await readdir(dir)).length).toBeGreaterThan(3);
    const { replayed } = await openReplayed(1024);
    expect(replayed.pushes).toHaveLength(20);
  });

  it('checkpoints, deletes covered segments and replays checkpoint plus later records', async () => {
    const { sut } = await openReplayed();
    await sut.append('t', [{ labelsText: labels('{a="b"}'), entries: [entry(1, 'before')] }]);
    const before = (await readdir(dir)).sort();
    let markSeen = 0;
    await sut.checkpoint(async function* () {
      markSeen = sut.nextSeq;
      yield encodeCheckpointStream({
        tenant: 't',
        labelsText: '{a="b"}',
        mark: markSeen,
        newestNs: 1n,
        lastTimestampNs: 1n,
        lastLine: Buffer.from('before'),
        closedChunks: [Buffer.from('closed-chunk')],
        headChunk: Buffer.from('head-chunk'),
        headParts: null,
      });
    });
    await sut.append('t', [{ labelsText: labels('{a="b"}'), entries: [entry(2, 'after')] }]);
    await sut.close();

    const after = (await readdir(dir)).sort();
    expect(after.some((n) => n.startsWith('checkpoint.'))).toBe(true);
    for (const old of before) expect(after).not.toContain(old);

    const { sut: again, replayed } = await openReplayed();
    expect(replayed.checkpoint).toHaveLength(1);
    const cs = replayed.checkpoint[0];
    expect(cs.mark).toBe(markSeen);
    expect(cs.closedChunks.map((b) => b.toString())).toEqual(['closed-chunk']);
    expect(cs.headChunk?.toString()).toBe('head-chunk');
    expect(cs.lastLine?.toString()).toBe('before');
    expect(replayed.pushes.map((p) => p.streams[0].entries[0].line.toString())).toEqual(['after']);
    expect(replayed.pushes[0].seq).toBeGreaterThanOrEqual(markSeen);
    await again.close();
  });

  it("replays stream records of both kinds: head parts (type 8) and older versions' (type 2)", async () => {
    const { sut } = await openReplayed();
    await sut.checkpoint(async function* () {
      yield encodeCheckpointStream({
        tenant: 't',
        labelsText: '{a="new"}',
        mark: 1,
        newestNs: 2n,
        lastTimestampNs: 2n,
        lastLine: Buffer.from('two'),
        closedChunks: [],
        headChunk: null,
        headParts: { blocks: null, head: Buffer.from('head-run') },
      });
      yield encodeCheckpointStream({
        tenant: 't',
        labelsText: '{a="blocks"}',
        mark: 1,
        newestNs: 2n,
        lastTimestampNs: 2n,
        lastLine: null,
        closedChunks: [],
        headChunk: null,
        headParts: { blocks: Buffer.from('blocks'), head: Buffer.from('run') },
      });
      // As version 1 of the checkpoint wrote a stream (no head parts).
      const tenant = 't';
      const text = Buffer.from('{a="old"}');
      const head = Buffer.from('old-head-chunk');
      const w = allocFrame(
        1 +
          stringSize(tenant) +
          bytesSize(text) +
          8 +
          1 +
          8 +
          8 +
          bytesSize(Buffer.alloc(0)) +
          uvarintSize(0) +
          1 +
          bytesSize(head),
      );
      w.u8(RecordType.CheckpointStream);
      w.string(tenant, 1);
      w.bytes(text);
      w.u64(1);
      w.u8(0);
      w.i64(-1n);
      w.i64(0n);
      w.bytes(Buffer.alloc(0));
      w.uvarint(0);
      w.u8(1);
      w.bytes(head);
      yield sealFrame(w);
    });
    await sut.close();
    const { sut: again, replayed } = await openReplayed();
    const heads = replayed.checkpoint.map((cs) => [
      cs.labelsText,
      cs.headChunk?.toString() ?? null,
      cs.headParts && [cs.headParts.blocks?.toString() ?? null, cs.headParts.head.toString()],
    ]);
    expect(heads).toEqual([
      ['{a="new"}', null, [null, 'head-run']],
      ['{a="blocks"}', null, ['blocks', 'run']],
      ['{a="old"}', 'old-head-chunk', null],
    ]);
    expect(replayed.checkpoint[0].lastLine?.toString()).toBe('two');
    await again.close();
  });

  it('refuses to replay over a damaged checkpoint', async () => {
    const { sut } = await openReplayed();
    await sut.checkpoint(async function* () {
      yield encodeCheckpointStream({
        tenant: 't',
        labelsText: '{a="b"}',
        mark: 1,
        newestNs: -1n,
        lastTimestampNs: 0n,
        lastLine: null,
        closedChunks: [],
        headChunk: null,
        headParts: null,
      });
    });
    await sut.close();
    const name = (await readdir(dir)).find((n) => n.startsWith('checkpoint.'))!;
    const buf = await readFile(join(dir, name));
    await writeFile(join(dir, name), buf.subarray(0, buf.length - 3));
    const again = await Wal.open({ dir, logger, counters });
    await expect(again.replay(collector())).rejects.toThrow(/checkpoint .*torn frame/);
  });
});
