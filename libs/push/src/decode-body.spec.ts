import { parseLabels } from '@logsvc/api';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeOtlpBody, decodePushBody } from './decode-body';
import { encodePushJson } from './loki-json';
import { encodePushProtobuf } from './loki-proto-encode';

const MAX = 1 << 20;
const req = {
  streams: [
    {
      labels: parseLabels('{a="b"}'),
      entries: [{ timestampNs: 7n, line: Buffer.from('x'), structuredMetadata: [] }],
    },
  ],
};

describe('decodePushBody dispatch', () => {
  it('decodes any media type but JSON as snappy protobuf, as Loki does', async () => {
    for (const contentType of [
      'application/x-protobuf',
      'application/octet-stream',
      'text/plain',
    ]) {
      const out = await decodePushBody({
        body: encodePushProtobuf(req),
        contentType,
        maxDecompressedBytes: MAX,
      });
      expect(out.streams[0].entries[0].timestampNs, contentType).toBe(7n);
    }
  });

  it("answers a missing or malformed Content-Type with Go's mime error, as Loki does", async () => {
    const cases: [string | undefined, string][] = [
      [undefined, 'mime: no media type'],
      ['', 'mime: no media type'],
      ['application/', 'mime: expected token after slash'],
      ['application json', 'mime: expected slash after first token'],
    ];
    for (const [contentType, message] of cases) {
      await expect(
        decodePushBody({ body: encodePushProtobuf(req), contentType, maxDecompressedBytes: MAX }),
      ).rejects.toMatchObject({ kind: 'bad_request', message });
    }
  });

  it("answers any malformed snappy body with Go's `snappy: corrupt input`, as Loki does", async () => {
    const valid = encodePushProtobuf(req);
    const bodies = [
      Buffer.from('garbage'), // a length header, then bytes that are no snappy element
      Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), // a length header that never ends
      valid.subarray(0, valid.length - 3), // cut short
    ];
    for (const body of bodies) {
      await expect(
        decodePushBody({ body, contentType: 'application/x-protobuf', maxDecompressedBytes: MAX }),
      ).rejects.toMatchObject({ kind: 'bad_request', message: 'snappy: corrupt input' });
    }
  });

  it('accepts Content-Encoding: snappy as a no-op and deflate as raw DEFLATE', async () => {
    const a = await decodePushBody({
      body: encodePushProtobuf(req),
      contentType: 'application/x-protobuf',
      contentEncoding: 'snappy',
      maxDecompressedBytes: MAX,
    });
    expect(a.streams).toHaveLength(1);
    const b = await decodePushBody({
      body: deflateRawSync(encodePushJson(req)),
      contentType: 'application/json',
      contentEncoding: 'deflate',
      maxDecompressedBytes: MAX,
    });
    expect(b.streams[0].entries[0].line.toString()).toBe('x');
  });

  it("answers a broken gzip body with Go's gzip error texts, checksum included", async () => {
    const gz = gzipSync(encodePushJson(req));
    const badChecksum = Buffer.from(gz);
    badChecksum[badChecksum.length - 8] ^= 0xff;
    const cases: [Buffer, string][] = [
      [encodePushJson(req), 'gzip: invalid header'],
      [gz.subarray(0, gz.length - 12), 'unexpected EOF'],
      [badChecksum, 'gzip: invalid checksum'],
    ];
    for (const [body, message] of cases) {
      await expect(
        decodePushBody({
          body,
          contentType: 'application/json',
          contentEncoding: 'gzip',
          maxDecompressedBytes: MAX,
        }),
      ).rejects.toMatchObject({ kind: 'bad_request', message });
    }
  });

  it('answers an empty JSON body with `EOF`, as Loki does', async () => {
    for (const body of [Buffer.alloc(0), Buffer.from(' \n')]) {
      await expect(
        decodePushBody({ body, contentType: 'application/json', maxDecompressedBytes: MAX }),
      ).rejects.toMatchObject({ kind: 'bad_request', message: 'EOF' });
    }
  });

  it('answers 400 for an unsupported Content-Encoding, as Loki does', async () => {
    await expect(
      decodePushBody({ body: Buffer.from('x'), contentEncoding: 'br', maxDecompressedBytes: MAX }),
    ).rejects.toMatchObject({
      kind: 'bad_request',
      message: 'Content-Encoding "br" not supported',
    });
  });

  it('answers 413 for a plain JSON body over the limit', async () => {
    await expect(
      decodePushBody({
        body: encodePushJson(req),
        contentType: 'application/json',
        maxDecompressedBytes: 10,
      }),
    ).rejects.toMatchObject({ kind: 'too_large' });
  });

  it('requires an exact OTLP content type', async () => {
    await expect(
      decodeOtlpBody({
        body: Buffer.from('{}'),
        contentType: 'application/json; charset=utf-8',
        maxDecompressedBytes: MAX,
        discover_service_name: [],
      }),
    ).rejects.toMatchObject({
      kind: 'bad_request',
      message: 'content type: application/json; charset=utf-8 is not supported',
    });
  });
});
