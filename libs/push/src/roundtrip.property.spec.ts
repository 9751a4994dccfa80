import { sortLabels, type PushRequest } from '@logsvc/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLokiJson, encodePushJson } from './loki-json';
import { decodeLokiProtobuf } from './loki-proto-decode';
import { encodePushProtobuf, encodePushProtobufRaw } from './loki-proto-encode';
import { snappyUncompressSync } from './decompress';

const name = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,8}$/);
const pairs = (minLength: number, valueMin: number) =>
  fc
    .uniqueArray(
      fc.record({
        name,
        value: fc.string({ minLength: valueMin, maxLength: 12, unit: 'grapheme' }),
      }),
      { selector: (p) => p.name, minLength, maxLength: 4 },
    )
    .map(sortLabels);
const entry = fc.record({
  timestampNs: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  line: fc.string({ maxLength: 40, unit: 'grapheme' }).map((s) => Buffer.from(s, 'utf8')),
  structuredMetadata: pairs(0, 0),
});
const request: fc.Arbitrary<PushRequest> = fc.record({
  streams: fc.array(
    fc.record({ labels: pairs(1, 1), entries: fc.array(entry, { maxLength: 5 }) }),
    { maxLength: 4 },
  ),
});

const view = (req: PushRequest) =>
  req.streams.map((s) => ({
    labels: s.labels,
    entries: s.entries.map((e) => ({ ...e, line: e.line.toString('hex') })),
  }));

describe('encode -> decode property', () => {
  it('protobuf (snappy) round-trips random requests', () => {
    fc.assert(
      fc.property(request, (req) => {
        const back = decodeLokiProtobuf(snappyUncompressSync(encodePushProtobuf(req), 1 << 24));
        expect(view(back)).toEqual(view(req));
      }),
    );
  });

  it('JSON round-trips random requests', () => {
    fc.assert(
      fc.property(request, (req) => {
        expect(view(decodeLokiJson(encodePushJson(req)))).toEqual(view(req));
      }),
    );
  });

  it('decoding arbitrary bytes yields a request or a 4xx PushError, never a crash', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        try {
          decodeLokiProtobuf(Buffer.from(bytes));
        } catch (err) {
          expect((err as { httpStatus?: number }).httpStatus).toBe(400);
        }
      }),
    );
  });

  it('decoding mutated valid bodies never crashes', () => {
    fc.assert(
      fc.property(request, fc.nat(), fc.integer({ min: 0, max: 255 }), (req, at, byte) => {
        const raw = Buffer.from(encodePushProtobufRaw(req));
        if (raw.length > 0) raw[at % raw.length] = byte;
        try {
          decodeLokiProtobuf(raw);
        } catch (err) {
          expect((err as { httpStatus?: number }).httpStatus).toBe(400);
        }
      }),
    );
  });
});
