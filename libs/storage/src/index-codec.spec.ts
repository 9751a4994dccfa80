import { crc32 } from 'node:zlib';
import { labelsFromRecord } from '@logsvc/api';
import { describe, expect, it } from 'vitest';
import { CorruptIndexError } from './errors';
import { decodeIndexFile, encodeIndexFile } from './index-codec';
import type { SeriesChunkRefs } from './index-model';

const series: SeriesChunkRefs[] = [
  {
    labels: labelsFromRecord({ app: 'api', env: 'prod' }),
    fingerprint: '0123456789abcdef',
    chunks: [
      {
        fromNs: 1_700_000_000_000_000_000n,
        throughNs: 1_700_000_360_000_000_001n,
        entries: 1234,
        size: 98765,
        uncompressedSize: 2 ** 40,
        key: 't/chunks/0123456789abcdef/1-2-deadbeef',
        checksum: 0xdeadbeef,
      },
    ],
  },
  {
    labels: labelsFromRecord({ app: 'wéb', msg: 'a "quoted"\nvalue' }),
    fingerprint: 'ffffffffffffffff',
    chunks: [],
  },
];

function withCrc(buf: Buffer): Buffer {
  const out = Buffer.from(buf);
  out.writeUInt32BE(crc32(out.subarray(0, out.length - 4)) >>> 0, out.length - 4);
  return out;
}

describe('index file codec', () => {
  it('round-trips series, labels and 64-bit chunk fields exactly', async () => {
    const { series: back } = await decodeIndexFile('k', await encodeIndexFile(series));
    expect(back).toEqual(series);
  });

  it('round-trips an empty file', async () => {
    expect((await decodeIndexFile('k', await encodeIndexFile([]))).series).toEqual([]);
  });

  it('reports a flipped byte as a checksum mismatch naming the file', async () => {
    const data = await encodeIndexFile(series);
    data[10] ^= 0xff;
    await expect(decodeIndexFile('t/index/index_1/a.idx', data)).rejects.toThrow(
      'corrupt index file t/index/index_1/a.idx: checksum mismatch',
    );
  });

  it('rejects foreign bytes, truncation and unknown versions with CorruptIndexError', async () => {
    const data = await encodeIndexFile(series);
    await expect(decodeIndexFile('k', Buffer.from('hello world'))).rejects.toThrow(/bad magic/);
    await expect(decodeIndexFile('k', data.subarray(0, data.length - 9))).rejects.toBeInstanceOf(
      CorruptIndexError,
    );
    const v2 = Buffer.from(data);
    v2[4] = 2;
    await expect(decodeIndexFile('k', withCrc(v2))).rejects.toThrow(/unsupported format version 2/);
  });

  it('rejects a body that decompresses but is malformed, even with a valid checksum', async () => {
    const data = await encodeIndexFile(series);
    const { gzipSync } = await import('node:zlib');
    const bogusBody = gzipSync(Buffer.from([0x05, 0x01, 0x61])); // 5 symbols promised, 1 present
    const forged = Buffer.concat([data.subarray(0, 6), bogusBody, Buffer.alloc(4)]);
    await expect(decodeIndexFile('k', withCrc(forged))).rejects.toThrow(/corrupt index file k: /);
  });
});
