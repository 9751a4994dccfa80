import { parseLabels } from '@logsvc/api';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodePushBody } from './decode-body';
import { decodeLokiJson, encodePushJson } from './loki-json';

const MAX = 1 << 20;
const json = (v: unknown) => Buffer.from(JSON.stringify(v));

function decode(body: Buffer, contentEncoding?: string) {
  return decodePushBody({
    body,
    contentType: 'application/json; charset=utf-8',
    contentEncoding,
    maxDecompressedBytes: MAX,
  });
}

describe('Loki JSON push', () => {
  it('decodes streams, values and structured metadata', async () => {
    const req = await decode(
      json({
        streams: [
          {
            stream: { app: 'api', empty: '' },
            values: [
              ['1700000000000000001', 'hello', { trace_id: 't1' }],
              ['2', 'x'],
            ],
          },
        ],
      }),
    );
    expect(req.streams).toHaveLength(1);
    expect(req.streams[0].labels).toEqual([{ name: 'app', value: 'api' }]);
    const [a, b] = req.streams[0].entries;
    expect(a.timestampNs).toBe(1700000000000000001n);
    expect(a.line.toString()).toBe('hello');
    expect(a.structuredMetadata).toEqual([{ name: 'trace_id', value: 't1' }]);
    expect(b.structuredMetadata).toEqual([]);
  });

  it('reads what Loki reads of odd entries and labels', async () => {
    const body = Buffer.from(
      '{"streams":[{"stream":{"code":5,"ok":true,"n":null,"lone":"a\\udc00"},' +
        '"values":[["1"],null,["2","x",{"k":"v\\ud800"},"ignored"]]}]}',
    );
    const req = await decode(body);
    expect(req.streams[0].labels).toEqual([
      { name: 'code', value: '5' },
      { name: 'lone', value: 'a\ufffd' },
      { name: 'n', value: 'null' },
      { name: 'ok', value: 'true' },
    ]);
    const [a, b] = req.streams[0].entries;
    expect(req.streams[0].entries).toHaveLength(2);
    expect([a.timestampNs, a.line.toString()]).toEqual([1n, '']);
    expect([b.timestampNs, b.line.toString()]).toEqual([2n, 'x']);
    expect(b.structuredMetadata).toEqual([{ name: 'k', value: 'v\ufffd' }]);
  });

  it('round-trips through encodePushJson', () => {
    const req = {
      streams: [
        {
          labels: parseLabels('{a="1", b="x\\"y"}'),
          entries: [
            {
              timestampNs: 123n,
              line: Buffer.from('l\n"q"'),
              structuredMetadata: [{ name: 'k', value: 'v' }],
            },
          ],
        },
      ],
    };
    const back = decodeLokiJson(encodePushJson(req));
    expect(back.streams[0].labels).toEqual(req.streams[0].labels);
    expect(back.streams[0].entries[0].line.toString()).toBe('l\n"q"');
    expect(back.streams[0].entries[0].structuredMetadata).toEqual([{ name: 'k', value: 'v' }]);
  });

  it('accepts gzip bodies', async () => {
    const req = await decode(
      gzipSync(json({ streams: [{ stream: { a: 'b' }, values: [['1', 'x']] }] })),
      'gzip',
    );
    expect(req.streams[0].entries[0].line.toString()).toBe('x');
  });

  it("rejects numeric timestamps with a 400 and Loki's message", async () => {
    await expect(
      decode(json({ streams: [{ stream: { a: 'b' }, values: [[1700000000, 'x']] }] })),
    ).rejects.toMatchObject({
      kind: 'bad_request',
      message: expect.stringContaining(`Value is string, but can't find closing '"' symbol`),
    });
  });

  it.each([
    [{ streams: [{ stream: { a: 'b' }, values: [[]] }] }, 'values[0] must be an array'],
    [{ streams: [{ stream: { a: 'b' }, values: ['1'] }] }, 'values[0] must be an array'],
    [{ streams: [{ stream: null, values: [] }] }, 'stream must be an object'],
    [{ streams: [{ stream: { a: 'b' }, values: [['1', 5]] }] }, 'log line must be a string'],
    [{ streams: [{ stream: { a: 'b' }, values: [['12a', 'x']] }] }, "invalid timestamp '12a'"],
    [
      { streams: [{ stream: { a: 'b' }, values: [['99999999999999999999', 'x']] }] },
      'invalid timestamp',
    ],
    [
      { streams: [{ stream: { a: 'b' }, values: [['1', 'x', { k: { nested: 'v' } }]] }] },
      'nested objects are not allowed',
    ],
    [
      { streams: [{ stream: { a: 'b' }, values: [['1', 'x', ['k']]] }] },
      'structured metadata must be an object',
    ],
    [{ streams: {} }, '"streams" must be an array'],
    [[1, 2], 'expected an object'],
  ])('rejects %j with a clear 400', async (doc, message) => {
    await expect(decode(json(doc))).rejects.toMatchObject({
      kind: 'bad_request',
      message: expect.stringContaining(message),
    });
  });

  it('rejects invalid JSON and bad gzip with a 400', async () => {
    await expect(decode(Buffer.from('{"streams": ['))).rejects.toMatchObject({
      kind: 'bad_request',
      message: expect.stringContaining('invalid JSON'),
    });
    await expect(decode(Buffer.from('not gzip'), 'gzip')).rejects.toMatchObject({
      kind: 'bad_request',
      message: expect.stringContaining('gzip'),
    });
  });

  it('stops a gzip bomb at the decompressed size limit with a 413', async () => {
    const bomb = gzipSync(Buffer.alloc(4 * MAX, 0x20));
    expect(bomb.length).toBeLessThan(MAX);
    await expect(decode(bomb, 'gzip')).rejects.toMatchObject({ kind: 'too_large' });
  });

  it('accepts the legacy labels/entries form with RFC 3339 timestamps', () => {
    const req = decodeLokiJson(
      json({
        streams: [
          {
            labels: '{foo="bar"}',
            entries: [{ ts: '2018-12-18T08:28:06.801064-04:00', line: 'baz' }],
          },
        ],
      }),
    );
    expect(req.streams[0].labels).toEqual([{ name: 'foo', value: 'bar' }]);
    expect(req.streams[0].entries[0].timestampNs).toBe(1545136086801064000n);
    expect(() =>
      decodeLokiJson(
        json({ streams: [{ labels: '{a="b"}', entries: [{ ts: 'yesterday', line: 'x' }] }] }),
      ),
    ).toThrow(/cannot parse 'yesterday' as RFC 3339/);
  });
});
