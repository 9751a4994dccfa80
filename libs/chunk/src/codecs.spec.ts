import { describe, expect, it } from 'vitest';
import { compress, decompress, decompressInto } from './codecs';
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
