import { describe, expect, it } from 'vitest';
import { decodeLokiJson } from './loki-json';
import { lokiJsonStreams, SLICED_JSON_MIN_BYTES } from './loki-json-streams';
import { STREAM_PIECE_ENTRIES } from './stream-pieces';

/** A body over the slicing threshold: `n` one-entry streams, pretty-printed or not. */
function bigBody(n: number, opts: { spaced?: boolean; extra?: string } = {}): string {
  const streams = [];
  for (let i = 0; i < n; i++) {
    streams.push({
      stream: { app: `a${i}`, quote: 'say "hi" \\ [x] {y}' },
      values: [[String(1_700_000_000_000_000_000n + BigInt(i)), `line ${i}, with ] and }`]],
    });
  }
  streams.push({ labels: '{legacy="yes"}', entries: [{ ts: '2024-01-01T00:00:00Z', line: 'l' }] });
  streams.push({ labels: '{not valid', entries: [{ ts: '2024-01-01T00:00:00Z', line: 'l' }] });
  const text = opts.spaced
    ? JSON.stringify({ streams }, null, 2)
    : JSON.stringify({ streams }).slice(0, -1) + (opts.extra ?? '') + '}';
  expect(Buffer.byteLength(text)).toBeGreaterThan(SLICED_JSON_MIN_BYTES);
  return text;
}

/** What the sliced reader yields, in the order validatePush sees decodeLokiJson's request. */
function sliced(text: string) {
  const all = [...lokiJsonStreams(Buffer.from(text))];
  return {
    rejected: all.filter((s) => 'reason' in s),
    streams: all.filter((s) => !('reason' in s)),
  };
}

function whole(text: string) {
  const req = decodeLokiJson(Buffer.from(text));
  return { rejected: req.rejected ?? [], streams: req.streams };
}

const errorOf = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    return (err as Error).message;
  }
  return 'no error';
};

describe('lokiJsonStreams (large JSON bodies decoded a batch at a time)', () => {
  it.each([
    ['compact', {}],
    ['pretty-printed', { spaced: true }],
    ['with other keys after "streams"', { extra: ',"other":{"x":[1,2]}' }],
  ])('yields exactly what decodeLokiJson decodes (%s)', (_name, opts) => {
    const text = bigBody(12_000, opts);
    expect(sliced(text)).toEqual(whole(text));
  });

  it.each([
    [
      'a syntax error deep in the body',
      (t: string) => t.replace('line 9000,', 'line 9000\u0000",'),
    ],
    [
      'an empty element',
      (t: string) => t.replace('},{"stream":{"app":"a500"', '},,{"stream":{"app":"a500"'),
    ],
    ['a trailing comma', (t: string) => t.replace(/\]\}$/, ',]}')],
    ['a truncated body', (t: string) => t.slice(0, -2)],
    ['a non-string line', (t: string) => t.replace('"line 7000, with ] and }"', '7')],
  ])('fails with decodeLokiJson error for %s', (_name, edit) => {
    const text = edit(bigBody(12_000));
    const expected = errorOf(() => decodeLokiJson(Buffer.from(text)));
    expect(expected).not.toBe('no error');
    expect(errorOf(() => [...lokiJsonStreams(Buffer.from(text))])).toBe(expected);
  });

  it('reads small bodies and an empty stream list as before', () => {
    expect([...lokiJsonStreams(Buffer.from('{"streams":[]}'))]).toEqual([]);
    const padded = `{"streams":[${' '.repeat(SLICED_JSON_MIN_BYTES)}]}`;
    expect([...lokiJsonStreams(Buffer.from(padded))]).toEqual([]);
  });

  it('hands out a long stream in pieces with the same labels, entries in order', () => {
    const values = Array.from({ length: 2 * STREAM_PIECE_ENTRIES + 5 }, (_, i) => [
      String(1_700_000_000_000_000_000n + BigInt(i)),
      `entry ${i} of a long stream`,
    ]);
    const text = JSON.stringify({ streams: [{ stream: { app: 'long' }, values }] });
    const pieces = [...lokiJsonStreams(Buffer.from(text))];
    expect(pieces.map((p) => p.entries.length)).toEqual([
      STREAM_PIECE_ENTRIES,
      STREAM_PIECE_ENTRIES,
      5,
    ]);
    const whole = decodeLokiJson(Buffer.from(text)).streams[0];
    for (const p of pieces) expect('labels' in p && p.labels).toEqual(whole.labels);
    expect(pieces.flatMap((p) => p.entries)).toEqual(whole.entries);
  });
});
