import { labelsToString, type PushStream, type RejectedStream } from '@logsvc/api';
import fc from 'fast-check';
import { Writer } from 'protobufjs/minimal';
import { describe, expect, it } from 'vitest';
import { PushError } from './errors';
import { READ_AHEAD_STREAMS } from './labels-read-ahead';
import { decodeLokiProtobuf, lokiProtobufStreams } from './loki-proto-decode';

/** Label strings streams are made of: most parse, one does not, one is empty. */
const LABELS = [
  '{app="a"}',
  '{app="b", env="prod"}',
  '{app="c"}',
  '{app="d", pod="d-1"}',
  '{a=b}',
  '',
  ...Array.from({ length: 40 }, (_, i) => `{app="many", n="${i}"}`),
];

interface StreamSpec {
  labels: string;
  /** Where the labels field goes: first (as every encoder writes it), after the entry, absent. */
  place: 'first' | 'last' | 'none';
  line: string;
  /** An unknown top-level field before this stream, which decoders skip. */
  junkBefore: boolean;
}

const streamSpec: fc.Arbitrary<StreamSpec> = fc.record({
  labels: fc.constantFrom(...LABELS),
  place: fc.constantFrom('first', 'first', 'first', 'last', 'none'),
  line: fc.string({ maxLength: 12 }),
  junkBefore: fc.boolean(),
});

function encode(specs: readonly StreamSpec[]): Buffer {
  const w = Writer.create();
  for (const s of specs) {
    if (s.junkBefore) w.uint32((5 << 3) | 0).uint32(7);
    w.uint32(10).fork();
    if (s.place === 'first') w.uint32(10).string(s.labels);
    w.uint32(18).fork().uint32(10).fork().uint32(8).int64(1_700_000_000).ldelim();
    w.uint32(18).string(s.line).ldelim();
    if (s.place === 'last') w.uint32(10).string(s.labels);
    w.ldelim();
  }
  return Buffer.from(w.finish());
}

/** What a stream decodes to: its labels as text, or why it was set aside; and its line. */
function view(s: PushStream | RejectedStream): string {
  const line = s.entries[0]?.line.toString() ?? '';
  return 'reason' in s ? `rejected ${s.reason} ${line}` : `${labelsToString(s.labels)} ${line}`;
}

function expected(s: StreamSpec): string {
  const labels = s.place === 'none' ? '' : s.labels;
  if (labels === '{a=b}' || labels === '') return `rejected invalid_labels ${s.line}`;
  return `${labels} ${s.line}`;
}

describe('label strings looked up ahead of the decoder', () => {
  it('decodes pushes of many streams, in any layout, as stream-by-stream reading would', () => {
    fc.assert(
      fc.property(fc.array(streamSpec, { maxLength: 3 * READ_AHEAD_STREAMS }), (specs) => {
        const decoded = [...lokiProtobufStreams(encode(specs), Infinity)];
        expect(decoded.map(view)).toEqual(specs.map(expected));
        // One memo per label string, whether it was found ahead or looked up.
        const memos = new Map<string, unknown>();
        for (const s of decoded) {
          if ('reason' in s) continue;
          const text = labelsToString(s.labels);
          if (!memos.has(text)) memos.set(text, s.memo);
          expect(s.memo).toBe(memos.get(text));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('leaves errors in a cut body to the decoder: the streams before the cut, then a 400', () => {
    fc.assert(
      fc.property(
        fc.array(streamSpec, { minLength: 1, maxLength: 2 * READ_AHEAD_STREAMS }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (specs, where) => {
          const body = encode(specs);
          const whole = decodeLokiProtobuf(body);
          const all = [...whole.streams, ...(whole.rejected ?? [])].length;
          const cut = body.subarray(0, Math.floor(where * body.length));
          const got: string[] = [];
          let error: unknown = null;
          try {
            for (const s of lokiProtobufStreams(cut, Infinity)) got.push(view(s));
          } catch (err) {
            error = err;
          }
          expect(got).toEqual(specs.slice(0, got.length).map(expected));
          expect(got.length).toBeLessThanOrEqual(all);
          if (error !== null) {
            expect(error).toBeInstanceOf(PushError);
            expect((error as PushError).httpStatus).toBe(400);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
