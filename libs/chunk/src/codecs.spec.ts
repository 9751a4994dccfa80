import { describe, expect, it } from 'vitest';
import { compress, compressCutBlock, decompress, decompressInto } from './codecs';
import { ChunkFormatError } from './errors';

describe('decompress', () => {
  const raw = Buffer.from('level=info msg="upstream timeout" '.repeat(200));

  it.each(['zstd', 'lz4', 'snappy', 'gzip'] as const)(
    '%s gives back the bytes, and refuses a size other than the recorded one',
    (codec) => {
      const packed = compress(codec, raw);
      expect(decompress(codec, packed, raw.length).equals(raw)).toBe(true);
      expect(() => decompress(codec, packed, raw.length - 1)).toThrow(ChunkFormatError);
      expect(() => decompress(codec, packed, raw.length + 1)).toThrow(ChunkFormatError);
    },
  );

  it('refuses a zstd frame cut short or spoiled', () => {
    const packed = compress('zstd', raw);
    expect(() => decompress('zstd', packed.subarray(0, packed.length - 4), raw.length)).toThrow(
      ChunkFormatError,
    );
    const bad = Buffer.from(packed);
    bad.fill(0x5a, 4, 12);
    expect(() => decompress('zstd', bad, raw.length)).toThrow(ChunkFormatError);
  });

  it('refuses a zstd frame cut short or spoiled when decompressing into a given buffer too', () => {
    const packed = compress('zstd', raw);
    const out = Buffer.alloc(raw.length);
    expect(decompressInto('zstd', packed, out)).toBe(true);
    expect(out.equals(raw)).toBe(true);
    expect(() => decompressInto('zstd', packed.subarray(0, packed.length - 4), out)).toThrow(
      ChunkFormatError,
    );
    const bad = Buffer.from(packed);
    bad.fill(0x5a, 4, 12);
    expect(() => decompressInto('zstd', bad, out)).toThrow(ChunkFormatError);
    expect(decompressInto('snappy', compress('snappy', raw), out)).toBe(false);
  });
});

describe('compressCutBlock', () => {
  // Lines of several shapes, so the fast level and level 1 differ in what they find.
  const raw = Buffer.from(
    Array.from(
      { length: 2000 },
      (_, i) =>
        `ts=${1_700_000_000_000 + i * 7} level=${i % 5 ? 'info' : 'warn'} pod=api-${i % 13} ` +
        `msg="request ${(i * 2_654_435_761) % 100_000} took ${i % 997}ms"\n`,
    ).join(''),
  );

  it('writes zstd frames any zstd reader decodes, in place too, and smaller than snappy', () => {
    const packed = compressCutBlock('zstd', raw);
    expect(decompress('zstd', packed, raw.length).equals(raw)).toBe(true);
    const out = Buffer.alloc(raw.length);
    expect(decompressInto('zstd', packed, out)).toBe(true);
    expect(out.equals(raw)).toBe(true);
    expect(packed.length).toBeLessThan(compress('snappy', raw).length);
  });

  it.each(['none', 'gzip', 'lz4', 'snappy'] as const)('writes %s as compress does', (codec) => {
    expect(compressCutBlock(codec, raw).equals(compress(codec, raw))).toBe(true);
  });
});
