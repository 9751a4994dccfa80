import { EMPTY_LABELS, type LabelPair, type Labels, type LogEntry } from '@logsvc/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecodeError } from './codec';
import { readFrame, RecordType } from './frame';
import { decodePushRecord, encodePushRecord, type WalStreamInput } from './push-record';
import { encodePushRecordV1 } from './push-record-v1';
import { SeriesRefs, type SeriesNames } from './series-refs';

function payloadOf(frame: Buffer): Buffer {
  const read = readFrame(frame, 0);
  if (read === null || 'problem' in read) throw new Error('bad frame');
  expect(read.next).toBe(frame.length);
  return read.payload;
}

/** Plain values, so equality ignores array identity and frozenness. */
function plain(streams: readonly WalStreamInput[]) {
  return streams.map((s) => ({
    labelsText: s.labelsText.toString('utf8'),
    entries: s.entries.map((e) => ({
      ts: e.timestampNs,
      line: e.line.toString('hex'),
      sm: e.structuredMetadata.map((p) => [p.name, p.value]),
    })),
  }));
}

const level = (value: string): Labels => Object.freeze([{ name: 'detected_level', value }]);
const entry = (ts: bigint, line: string, sm: Labels = EMPTY_LABELS): LogEntry => ({
  timestampNs: ts,
  line: Buffer.from(line),
  structuredMetadata: sm,
});

describe('push record (type 5)', () => {
  it('round-trips streams, entries and shared and distinct metadata', () => {
    const info = level('info');
    const streams: WalStreamInput[] = [
      {
        labelsText: Buffer.from('{app="a"}'),
        entries: [
          entry(1n, 'one', info),
          entry(2n, 'two', info),
          entry(-(2n ** 63n), '', EMPTY_LABELS),
          entry(2n ** 63n - 1n, 'é\n\u0000', [
            { name: 'detected_level', value: 'error' },
            { name: 'trace_id', value: 'abc' },
          ]),
        ],
      },
      { labelsText: Buffer.from('{app="é"}'), entries: [entry(5n, 'x', level('info'))] },
    ];
    const frame = encodePushRecord(42, 'tenant-é', streams);
    const decoded = decodePushRecord(payloadOf(frame));
    expect(decoded.seq).toBe(42);
    expect(decoded.tenant).toBe('tenant-é');
    expect(
      plain(decoded.streams.map((s) => ({ ...s, labelsText: Buffer.from(s.labelsText) }))),
    ).toEqual(plain(streams));
  });

  it('writes a pair every entry carries once per record', () => {
    const info = level('info');
    const many = (sm: (i: number) => Labels): WalStreamInput[] => [
      {
        labelsText: Buffer.from('{a="b"}'),
        entries: Array.from({ length: 1000 }, (_, i) => entry(BigInt(i), 'line', sm(i))),
      },
    ];
    const shared = encodePushRecord(
      1,
      't',
      many(() => info),
    ).length;
    // Separate but equal arrays per entry (as validation builds them) dedupe the same way.
    const copies = encodePushRecord(
      1,
      't',
      many(() => level('info')),
    ).length;
    const none = encodePushRecord(
      1,
      't',
      many(() => EMPTY_LABELS),
    ).length;
    expect(shared).toBe(copies);
    // One count byte and one pair number per entry, plus the pair itself once.
    expect(shared - none).toBe(1000 + 'detected_level'.length + 'info'.length + 2);
  });

  it('still replays type 1 records written by older versions', () => {
    const streams: WalStreamInput[] = [
      {
        labelsText: Buffer.from('{app="a"}'),
        entries: [entry(1n, 'one', level('warn')), entry(2n, 'two')],
      },
    ];
    const payload = payloadOf(encodePushRecordV1(7, 't', streams));
    expect(payload[0]).toBe(RecordType.PushV1);
    const decoded = decodePushRecord(payload);
    expect(decoded.seq).toBe(7);
    expect(
      plain(decoded.streams.map((s) => ({ ...s, labelsText: Buffer.from(s.labelsText) }))),
    ).toEqual(plain(streams));
  });

  it('refuses pair numbers outside the table and unknown record types', () => {
    const payload = Buffer.from(
      payloadOf(
        encodePushRecord(1, 't', [
          { labelsText: Buffer.from('{a="b"}'), entries: [entry(1n, 'x', level('info'))] },
        ]),
      ),
    );
    // The entry's single pair number is the byte before the line.
    payload[payload.length - 2] = 9;
    expect(() => decodePushRecord(payload)).toThrow(/out of range/);
    payload[0] = 9;
    expect(() => decodePushRecord(payload)).toThrow(DecodeError);
  });
});

const pairArb: fc.Arbitrary<LabelPair> = fc.record({
  name: fc.constantFrom('detected_level', 'trace_id', 'é', ''),
  value: fc.string({ maxLength: 5 }),
});

/** Metadata sorted by name with distinct names, as validation produces it. */
const metadataArb: fc.Arbitrary<Labels> = fc
  .uniqueArray(pairArb, { selector: (p) => p.name, maxLength: 3 })
  .map((ps) => [...ps].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)));

const streamsArb: fc.Arbitrary<WalStreamInput[]> = fc.array(
  fc.record({
    labelsText: fc.string({ maxLength: 12 }).map((s) => Buffer.from(s)),
    entries: fc.array(
      fc.record({
        timestampNs: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        line: fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
        structuredMetadata: fc.oneof(fc.constant(EMPTY_LABELS), metadataArb),
      }),
      { maxLength: 30 },
    ),
  }),
  { maxLength: 5 },
);

describe('push record (property)', () => {
  it('decodes exactly what was encoded, whatever the entries', () => {
    fc.assert(
      fc.property(fc.nat({ max: 2 ** 53 - 1 }), fc.string(), streamsArb, (seq, tenant, streams) => {
        const decoded = decodePushRecord(payloadOf(encodePushRecord(seq, tenant, streams)));
        expect(decoded.seq).toBe(seq);
        expect(decoded.tenant).toBe(Buffer.from(tenant).toString('utf8'));
        const asInput = decoded.streams.map((s) => ({
          labelsText: Buffer.from(s.labelsText),
          entries: s.entries,
        }));
        const expected = streams.map((s) => ({
          labelsText: Buffer.from(s.labelsText.toString('utf8')),
          entries: s.entries,
        }));
        expect(plain(asInput)).toEqual(plain(expected));
      }),
    );
  });

  it('throws DecodeError (never anything else) on a truncated payload', () => {
    fc.assert(
      fc.property(streamsArb, fc.nat(), (streams, cut) => {
        const payload = payloadOf(encodePushRecord(1, 't', streams));
        const truncated = payload.subarray(0, cut % payload.length);
        expect(() => decodePushRecord(truncated)).toThrow(DecodeError);
      }),
    );
  });
});

describe('push record with series numbers (type 6)', () => {
  function names(): SeriesNames & { texts: Map<number, string> } {
    const texts = new Map<number, string>();
    return { texts, get: (r) => texts.get(r), set: (r, t) => void texts.set(r, t) };
  }

  it('defines a stream once, names it by number after, and skips numbers it never saw', () => {
    const refs = new SeriesRefs(7);
    const a = { walRef: 0, walEpoch: -1 };
    const stream = (line: string): WalStreamInput[] => [
      { labelsText: Buffer.from('{app="a"}'), series: a, entries: [entry(1n, line)] },
      { labelsText: Buffer.from('{app="b"}'), entries: [entry(2n, line)] },
    ];
    const first = payloadOf(encodePushRecord(1, 't', stream('one'), undefined, refs));
    const second = payloadOf(encodePushRecord(2, 't', stream('two'), undefined, refs));
    expect(first[0]).toBe(RecordType.PushRefs);
    expect(first.includes('{app="a"}')).toBe(true);
    // The stream with a slot is named by number; the one without is defined every time.
    expect(second.includes('{app="a"}')).toBe(false);
    expect(second.includes('{app="b"}')).toBe(true);
    expect(a.walRef).toBe(7);

    const table = names();
    const replayed = [first, second].map((p) => decodePushRecord(p, table));
    expect(
      replayed.map((d) => d.streams.map((s) => `${s.labelsText} ${s.entries[0].line}`)),
    ).toEqual([
      ['{app="a"} one', '{app="b"} one'],
      ['{app="a"} two', '{app="b"} two'],
    ]);
    const alone = decodePushRecord(second, names());
    expect(alone.unknownSeries).toBe(1);
    expect(alone.streams.map((s) => s.labelsText)).toEqual(['{app="b"}']);
    expect(() => decodePushRecord(second)).toThrow(DecodeError);
  });
});

describe('WAL frame checksum', () => {
  it("is zlib's CRC-32 of the payload, so WALs written before stay readable", async () => {
    const { crc32 } = await import('node:zlib');
    const frame = encodePushRecord(7, 'tenant', [
      {
        labelsText: Buffer.from('{app="a"}'),
        entries: [
          {
            timestampNs: 1n,
            line: Buffer.from('x'.repeat(5000)),
            structuredMetadata: EMPTY_LABELS,
          },
        ],
      },
    ]);
    expect(frame.readUInt32LE(4)).toBe(crc32(payloadOf(frame)));
  });
});
