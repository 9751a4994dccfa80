import { parseLabels, type PushRequest } from '@logsvc/api';
import { Writer } from 'protobufjs/minimal';
import * as snappy from 'snappy';
import { describe, expect, it } from 'vitest';
import { PushError } from './errors';
import { decodeLokiProtobuf, lokiProtobufStreams } from './loki-proto-decode';
import { encodePushProtobuf, encodePushProtobufRaw } from './loki-proto-encode';
import { decodePushBody } from './decode-body';

const MAX = 10 << 20;
const PROTO = 'application/x-protobuf';

function sample(): PushRequest {
  return {
    streams: [
      {
        labels: parseLabels('{app="api", env="prod"}'),
        entries: [
          {
            timestampNs: 1700000000123456789n,
            line: Buffer.from('GET /health 200'),
            structuredMetadata: [],
          },
          {
            timestampNs: 1700000001000000000n,
            line: Buffer.from('héllo wörld'),
            structuredMetadata: [
              { name: 'trace_id', value: 'abc' },
              { name: 'user', value: 'ü' },
            ],
          },
        ],
      },
      {
        labels: parseLabels('{app="db"}'),
        entries: [{ timestampNs: 5n, line: Buffer.from(''), structuredMetadata: [] }],
      },
    ],
  };
}

function plain(req: PushRequest) {
  return req.streams.map((s) => ({
    labels: s.labels,
    entries: s.entries.map((e) => ({
      ts: e.timestampNs,
      line: e.line.toString('utf8'),
      sm: e.structuredMetadata,
    })),
  }));
}

describe('Loki protobuf push', () => {
  it('round-trips through encodePushProtobuf and decodePushBody', async () => {
    const req = sample();
    const decoded = await decodePushBody({
      body: encodePushProtobuf(req),
      contentType: 'application/x-protobuf',
      maxDecompressedBytes: MAX,
    });
    expect(plain(decoded)).toEqual(plain(req));
  });

  it('decodes a body built by hand with Loki field numbers (golden bytes)', () => {
    const w = Writer.create();
    w.uint32(10).fork(); // PushRequest.streams = 1
    w.uint32(10).string('{job="x"}'); // StreamAdapter.labels = 1
    w.uint32(18).fork(); // StreamAdapter.entries = 2
    w.uint32(10).fork().uint32(8).int64(1700000000).uint32(16).int32(42).ldelim(); // timestamp {seconds=1,nanos=2}
    w.uint32(18).string('line one'); // EntryAdapter.line = 2 (string on the wire)
    w.uint32(26).fork().uint32(10).string('k').uint32(18).string('v').ldelim(); // structuredMetadata = 3
    w.uint32(34).fork().uint32(10).string('parsed').uint32(18).string('ignored').ldelim(); // parsed = 4
    w.ldelim();
    w.uint32(24).uint64(12345); // StreamAdapter.hash = 3, ignored
    w.ldelim();
    const raw = Buffer.from(w.finish());
    expect(raw.toString('hex')).toBe(
      '0a3f0a097b6a6f623d2278227d122f0a080880e2cfaa06102a12086c696e65206f6e651a060a016b12017622110a06706172736564120769676e6f72656418b960',
    );
    const req = decodeLokiProtobuf(raw);
    expect(plain(req)).toEqual([
      {
        labels: [{ name: 'job', value: 'x' }],
        entries: [{ ts: 1700000000000000042n, line: 'line one', sm: [{ name: 'k', value: 'v' }] }],
      },
    ]);
    // Our encoder writes the same bytes for the fields Loki sends.
    const ours = encodePushProtobufRaw(req);
    expect(decodeLokiProtobuf(ours).streams[0].entries[0].timestampNs).toBe(1700000000000000042n);
  });

  it('keeps lines as views into the decompressed body, not copies', () => {
    const raw = encodePushProtobufRaw(sample());
    const req = decodeLokiProtobuf(raw);
    expect(req.streams[0].entries[0].line.buffer).toBe(raw.buffer);
  });

  it('parses each distinct label string once per request', () => {
    const labels = parseLabels('{a="1"}');
    const entry = { timestampNs: 1n, line: Buffer.from('x'), structuredMetadata: [] };
    const req = decodeLokiProtobuf(
      encodePushProtobufRaw({
        streams: [
          { labels, entries: [entry] },
          { labels, entries: [entry] },
        ],
      }),
    );
    expect(req.streams[0].labels).toBe(req.streams[1].labels);
  });

  it('handles timestamps before 1970', () => {
    const req: PushRequest = {
      streams: [
        {
          labels: parseLabels('{a="1"}'),
          entries: [{ timestampNs: -1500000000n, line: Buffer.from('x'), structuredMetadata: [] }],
        },
      ],
    };
    expect(decodeLokiProtobuf(encodePushProtobufRaw(req)).streams[0].entries[0].timestampNs).toBe(
      -1500000000n,
    );
  });

  it.each([
    ['truncated message', Buffer.from([0x0a, 0x20, 0x0a])],
    ['bad wire type', Buffer.from([0x0f, 0x01])],
    ['length past the end', Buffer.from([0x0a, 0x05, 0x12, 0x10, 0x01])],
  ])('rejects a malformed protobuf (%s) with a 400', (_what, raw) => {
    expect(() => decodeLokiProtobuf(raw)).toThrowError(PushError);
    try {
      decodeLokiProtobuf(raw);
    } catch (err) {
      expect((err as PushError).httpStatus).toBe(400);
    }
  });

  it('rejects timestamps outside the protobuf Timestamp range', () => {
    const w = Writer.create();
    w.uint32(10).fork().uint32(10).string('{a="b"}');
    w.uint32(18)
      .fork()
      .uint32(10)
      .fork()
      .uint32(8)
      .int64(1)
      .uint32(16)
      .int32(1_000_000_000)
      .ldelim()
      .ldelim();
    w.ldelim();
    expect(() => decodeLokiProtobuf(Buffer.from(w.finish()))).toThrow(/nanos not in range/);
  });

  /** A stream with `labels` and one entry, as protobuf bytes of a PushRequest field. */
  function streamWithLabels(w: Writer, labels: string, line: string): void {
    w.uint32(10).fork().uint32(10).string(labels);
    w.uint32(18).fork().uint32(10).fork().uint32(8).int64(1_700_000_000).ldelim();
    w.uint32(18).string(line).ldelim();
    w.ldelim();
  }

  it('sets aside a stream whose labels do not parse, the way Loki words it, and keeps the rest', () => {
    const w = Writer.create();
    streamWithLabels(w, '{a=b}', 'bad');
    streamWithLabels(w, '{app="ok"}', 'good');
    const req = decodeLokiProtobuf(Buffer.from(w.finish()));
    expect(req.streams.map((s) => s.entries[0].line.toString())).toEqual(['good']);
    expect(req.rejected).toHaveLength(1);
    expect(req.rejected![0].reason).toBe('invalid_labels');
    expect(req.rejected![0].message).toMatch(/^Error parsing labels '\{a=b\}' with error: /);
    expect(req.rejected![0].entries[0].line.toString()).toBe('bad');
  });

  it('sets aside a stream with duplicate label names, naming the stream', () => {
    const w = Writer.create();
    streamWithLabels(w, '{a="1", a="2"}', 'dup');
    const req = decodeLokiProtobuf(Buffer.from(w.finish()));
    expect(req.streams).toEqual([]);
    expect(req.rejected).toMatchObject([
      {
        reason: 'duplicate_label_names',
        message: `stream '{a="1", a="2"}' has duplicate label name: 'a'`,
      },
    ]);
  });

  it('rejects truncated snappy with a 400', async () => {
    const body = encodePushProtobuf(sample());
    await expect(
      decodePushBody({
        body: body.subarray(0, body.length - 5),
        contentType: PROTO,
        maxDecompressedBytes: MAX,
      }),
    ).rejects.toMatchObject({ kind: 'bad_request' });
  });

  it('refuses a body whose declared snappy length is over the limit before decompressing', async () => {
    // varint 0xffffffff declared length followed by junk.
    const bomb = Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f, 0x00]);
    await expect(
      decodePushBody({ body: bomb, contentType: PROTO, maxDecompressedBytes: MAX }),
    ).rejects.toMatchObject({
      kind: 'too_large',
      message: `request body too large: 4294967295 bytes, limit: ${MAX} bytes`,
    });
  });

  it('accepts a gzip-wrapped snappy protobuf body', async () => {
    const { gzipSync } = await import('node:zlib');
    const body = gzipSync(encodePushProtobuf(sample()));
    const req = await decodePushBody({
      body,
      contentType: 'application/x-protobuf',
      contentEncoding: 'gzip',
      maxDecompressedBytes: MAX,
    });
    expect(plain(req)).toEqual(plain(sample()));
  });

  it('uses the snappy block format, not the framed one', () => {
    const body = encodePushProtobuf(sample());
    expect(snappy.uncompressSync(body, { asBuffer: true })).toEqual(
      encodePushProtobufRaw(sample()),
    );
    expect(body[0]).not.toBe(0xff); // framed snappy starts with a 0xff stream identifier chunk
  });

  it('streams a request stream by stream, a long stream in pieces with the same labels', () => {
    const req: PushRequest = {
      streams: ['{app="a"}', '{app="b"}'].map((labels, k) => ({
        labels: parseLabels(labels),
        entries: Array.from({ length: 5 }, (_, i) => ({
          timestampNs: BigInt(1_700_000_000 + i) * 1_000_000_000n,
          line: Buffer.from(`${k}-${i}`),
          structuredMetadata: [],
        })),
      })),
    };
    const raw = encodePushProtobufRaw(req);
    const pieces = [...lokiProtobufStreams(raw, 2)];
    expect(pieces.map((p) => p.entries.length)).toEqual([2, 2, 1, 2, 2, 1]);
    const whole = decodeLokiProtobuf(raw).streams;
    expect(pieces.slice(0, 3).flatMap((p) => p.entries)).toEqual(whole[0].entries);
    expect(pieces.slice(3).flatMap((p) => p.entries)).toEqual(whole[1].entries);
    expect(pieces.map((p) => 'labels' in p && p.labels)).toEqual([
      ...Array(3).fill(whole[0].labels),
      ...Array(3).fill(whole[1].labels),
    ]);
  });
});
