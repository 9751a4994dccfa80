import { EMPTY_LABELS, type LogEntry, type PushBodySource } from '@logsvc/api';
import fc from 'fast-check';
import * as snappy from 'snappy';
import { describe, expect, it } from 'vitest';
import { DecodeError, uvarintSize } from './codec';
import { readFrame, RecordType } from './frame';
import { decodePushRecord, encodePushRecord, type WalStreamInput } from './push-record';
import { SeriesRefs, type SeriesNames } from './series-refs';

function payloadOf(frame: Buffer): Buffer {
  const read = readFrame(frame, 0);
  if (read === null || 'problem' in read) throw new Error('bad frame');
  return read.payload;
}

function names(): SeriesNames {
  const texts = new Map<number, string>();
  return { get: (r) => texts.get(r), set: (r, t) => void texts.set(r, t) };
}

/** A body holding `lines` back to back after some framing bytes, as a decoded push has it. */
function bodyOf(lines: readonly string[]): { source: PushBodySource; views: Buffer[] } {
  const parts = lines.map((l) => Buffer.from(l));
  const plain = Buffer.concat(parts.flatMap((p) => [Buffer.from([0x0a, p.length & 0x7f]), p]));
  const views: Buffer[] = [];
  let at = 0;
  for (const p of parts) {
    at += 2;
    views.push(plain.subarray(at, at + p.length));
    at += p.length;
  }
  const block = snappy.compressSync(plain);
  return { source: { snappy: block, plain }, views };
}

const entry = (ts: bigint, line: Buffer): LogEntry => ({
  timestampNs: ts,
  line,
  structuredMetadata: EMPTY_LABELS,
});

/** Streams as plain values: labels, then `ts line` per entry. */
function texts(streams: readonly { labelsText: string | Buffer; entries: readonly LogEntry[] }[]) {
  return streams.map((s) => [
    s.labelsText.toString(),
    ...s.entries.map((e) => `${e.timestampNs} ${e.line.toString('latin1')}`),
  ]);
}

/** A two-byte uvarint (128 to 16383), read and written in place. */
function readUvarint2(buf: Buffer, at: number): number {
  return (buf[at] & 0x7f) | (buf[at + 1] << 7);
}

function writeUvarint2(buf: Buffer, at: number, n: number): void {
  buf[at] = (n & 0x7f) | 0x80;
  buf[at + 1] = n >> 7;
}

function encode(streams: WalStreamInput[], source?: PushBodySource): Buffer {
  return payloadOf(encodePushRecord(3, 't', streams, undefined, new SeriesRefs(0), source));
}

describe('push record holding the push body (type 7)', () => {
  const lines = Array.from(
    { length: 30 },
    (_, i) => `level=info msg="served" path=/items/${i % 4}`,
  );

  it('holds the received body once and finds each line in it again, others written out', () => {
    const { source, views } = bodyOf(lines);
    const streams: WalStreamInput[] = [
      {
        labelsText: Buffer.from('{app="a"}'),
        entries: views.slice(0, 20).map((v, i) => entry(BigInt(i), v)),
      },
      {
        labelsText: Buffer.from('{app="b"}'),
        entries: [
          entry(1n, views[20].subarray(0, 9)), // truncated: still a view
          entry(2n, Buffer.from('not from the body')),
          ...views.slice(21).map((v, i) => entry(BigInt(3 + i), v)),
        ],
      },
    ];
    const withBody = encode(streams, source);
    const without = encode(streams);
    expect(withBody[0]).toBe(RecordType.PushRefsBody);
    expect(without[0]).toBe(RecordType.PushRefs);
    expect(withBody.length).toBeLessThan(without.length / 2);
    expect(withBody.includes('not from the body')).toBe(true);
    expect(texts(decodePushRecord(withBody, names()).streams)).toEqual(texts(streams));
  });

  it('takes a written-out line longer than the whole body', () => {
    const { source, views } = bodyOf(lines);
    const long = Buffer.from('x'.repeat(source.plain.length + 100));
    const streams = [
      {
        labelsText: Buffer.from('{app="a"}'),
        entries: [...views.map((v, i) => entry(BigInt(i), v)), entry(99n, long)],
      },
    ];
    const payload = encode(streams, source);
    expect(payload[0]).toBe(RecordType.PushRefsBody);
    expect(texts(decodePushRecord(payload, names()).streams)).toEqual(texts(streams));
  });

  it('writes the lines out when the body is no smaller than what it stands for', () => {
    // Few of an incompressible body's bytes are lines of the push.
    const noise = Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7919) % 251));
    const plain = Buffer.concat([noise, Buffer.from('the only line')]);
    const source = { snappy: snappy.compressSync(plain), plain };
    const streams = [
      { labelsText: Buffer.from('{app="a"}'), entries: [entry(1n, plain.subarray(4000))] },
    ];
    const payload = encode(streams, source);
    expect(payload[0]).toBe(RecordType.PushRefs);
    expect(payload.length).toBeLessThan(100);
    expect(texts(decodePushRecord(payload, names()).streams)).toEqual(texts(streams));
  });

  it('refuses a body of another length than recorded, and a line past the body', () => {
    const { source, views } = bodyOf(lines);
    const streams = [
      { labelsText: Buffer.from('{app="a"}'), entries: views.map((v, i) => entry(BigInt(i), v)) },
    ];
    // A block of one byte less than the body recorded (one of more is refused as too large).
    const shorter = {
      snappy: snappy.compressSync(source.plain.subarray(1)),
      plain: source.plain,
    };
    expect(() => decodePushRecord(encode(streams, shorter), names())).toThrow(
      /decompressed to \d+ bytes, expected/,
    );
    // The same body cut short, and its recorded length with it: the last lines no longer fit.
    const short = source.plain.subarray(0, source.plain.length - 10);
    const cut = { snappy: snappy.compressSync(short), plain: source.plain };
    const payload = encode(streams, cut);
    const lengthAt =
      payload.indexOf(cut.snappy) -
      uvarintSize(cut.snappy.length) -
      uvarintSize(source.plain.length);
    expect(readUvarint2(payload, lengthAt)).toBe(source.plain.length);
    writeUvarint2(payload, lengthAt, short.length);
    expect(() => decodePushRecord(payload, names())).toThrow(/runs past the push body/);
  });

  it('decodes exactly what was encoded, and throws DecodeError on any truncation', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...lines), { minLength: 1, maxLength: 40 }),
        fc.array(fc.boolean(), { maxLength: 40 }),
        fc.nat(),
        (picked, copied, cut) => {
          const { source, views } = bodyOf(picked);
          const entries = views.map((v, i) => entry(BigInt(i), copied[i] ? Buffer.from(v) : v));
          const streams = [{ labelsText: Buffer.from('{app="a"}'), entries }];
          const payload = encode(streams, source);
          expect(texts(decodePushRecord(payload, names()).streams)).toEqual(texts(streams));
          const truncated = payload.subarray(0, cut % payload.length);
          expect(() => decodePushRecord(truncated, names())).toThrow(DecodeError);
        },
      ),
    );
  });
});
