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

/** Expects lokiJsonStreams to fail on `text` with the error decodeLokiJson fails with. */
function expectSameFailure(text: string): void {
  const expected = errorOf(() => decodeLokiJson(Buffer.from(text)));
  expect(expected).not.toBe('no error');
  expect(errorOf(() => [...lokiJsonStreams(Buffer.from(text))])).toBe(expected);
}

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
    expectSameFailure(edit(bigBody(12_000)));
  });

  it('reads small bodies and an empty stream list as before', () => {
    expect([...lokiJsonStreams(Buffer.from('{"streams":[]}'))]).toEqual([]);
    const padded = `{"streams":[${' '.repeat(SLICED_JSON_MIN_BYTES)}]}`;
    expect([...lokiJsonStreams(Buffer.from(padded))]).toEqual([]);
  });

  /** One stream of `n` entries, with `before`/`after` text around its "values" key. */
  function longStream(n: number, before = '', after = ''): string {
    const values = Array.from({ length: n }, (_, i) => [
      String(1_700_000_000_000_000_000n + BigInt(i)),
      `entry ${i} "of" a long [stream]`,
    ]);
    return `{"streams":[{${before}"stream":{"app":"long"},"values":${JSON.stringify(values)}${after}}]}`;
  }

  it.each([
    ['a stream element under 1 MiB in a larger body', 15_000, true],
    ['a stream element of several MiB', 2 * STREAM_PIECE_ENTRIES + 5_000, false],
  ])('hands out a long stream in pieces (%s)', (_name, n, padded) => {
    let text = longStream(n);
    if (padded) {
      const pad = `{"stream":{"pad":"x"},"values":[["1","${'p'.repeat(SLICED_JSON_MIN_BYTES)}"]]}`;
      text = text.replace('{"streams":[', `{"streams":[${pad},`);
    }
    const all = sliced(text).streams;
    const wholeStreams = whole(text).streams;
    const whole0 = wholeStreams[wholeStreams.length - 1];
    const pieces = all.filter((p) => 'labels' in p && p.labels[0].name === 'app');
    expect(pieces.length).toBeGreaterThan(1);
    expect(Math.max(...pieces.map((p) => p.entries.length))).toBeLessThanOrEqual(
      STREAM_PIECE_ENTRIES,
    );
    for (const p of pieces) expect('labels' in p && p.labels).toEqual(whole0.labels);
    expect(pieces.flatMap((p) => p.entries)).toEqual(whole0.entries);
  });

  it.each([
    ['other keys before and after "values"', '"x":{"a":[1,"]"]},', ',"y":null'],
    ['a repeated "values" key', '"values":[],', ''],
    ['a legacy stream among the keys', '"labels":"{a=\\"b\\"}",', ''],
  ])('reads one large stream with %s as decodeLokiJson does', (_name, before, after) => {
    const text = longStream(25_000, before, after);
    const expected = errorOf(() => decodeLokiJson(Buffer.from(text)));
    if (expected !== 'no error') {
      expect(errorOf(() => [...lokiJsonStreams(Buffer.from(text))])).toBe(expected);
      return;
    }
    const merged = sliced(text).streams.flatMap((p) => p.entries);
    expect(merged).toEqual(whole(text).streams.flatMap((p) => p.entries));
  });

  it.each([
    [
      'a syntax error among its values',
      (t: string) => t.replace('"entry 20000 ', '"entry 20000 \\u12'),
    ],
    [
      'a non-string line among its values',
      (t: string) => t.replace(/"entry 24000 [^"]*(\\"[^"]*)*"/, '7'),
    ],
    [
      'a stream object that is not one',
      (t: string) => t.replace('"stream":{"app":"long"}', '"stream":[1]'),
    ],
  ])('fails as decodeLokiJson does for one large stream with %s', (_name, edit) => {
    expectSameFailure(edit(longStream(25_000)));
  });

  it('reads one large stream whose "values" come before "stream" (parsed whole)', () => {
    const values = Array.from({ length: 25_000 }, (_, i) => [String(i + 1), `entry ${i} here`]);
    const text = JSON.stringify({ streams: [{ values, stream: { app: 'late' } }] });
    expect(sliced(text).streams.flatMap((p) => p.entries)).toEqual(
      whole(text).streams.flatMap((p) => p.entries),
    );
  });

  it('refuses "stream" given again after the values of a stream over 1 MiB', () => {
    const text = longStream(25_000, '', ',"stream":{"app":"other"}');
    expect(errorOf(() => [...lokiJsonStreams(Buffer.from(text))])).toBe(
      'streams[0]: "stream" after "values" in a stream over 1 MiB; send "stream" first',
    );
  });

  it('reads big elements between small ones, in order', () => {
    const small = (n: number) => `{"stream":{"n":"${n}"},"values":[["${n}","s"]]}`;
    const big = longStream(25_000).slice('{"streams":['.length, -2);
    const text = `{"streams":[${small(1)},${big},${small(2)},${big}]}`;
    const labels = sliced(text).streams.map((p) => ('labels' in p ? p.labels[0].value : ''));
    expect(labels.filter((l, k) => l !== labels[k - 1])).toEqual(['1', 'long', '2', 'long']);
    expect(sliced(text).streams.flatMap((p) => p.entries)).toEqual(
      whole(text).streams.flatMap((p) => p.entries),
    );
  });
});
