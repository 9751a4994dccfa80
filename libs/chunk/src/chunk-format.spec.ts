import { crc32 } from 'node:zlib';
import { EMPTY_LABELS, labelsFromRecord } from '@logsvc/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkFormatError } from './errors';
import { MemChunk } from './mem-chunk';
import { CHUNK_ENCODINGS, type ChunkEncoding } from './options';
import { drain } from './test-helpers';

const ALL = [0n, 1n << 62n] as const;

function sampleChunk(encoding: ChunkEncoding): Buffer {
  const c = new MemChunk({ encoding, blockSize: 60 });
  for (let i = 0; i < 12; i++) {
    const sm = i % 2 === 0 ? labelsFromRecord({ trace_id: `t${i % 4}` }) : EMPTY_LABELS;
    c.append(BigInt((i * 5) % 12) * 1000n, Buffer.from(`GET /items/${i} 200`), sm);
  }
  return c.encode();
}

function expectFormatError(buf: Buffer): void {
  let thrown: unknown;
  try {
    const chunk = MemChunk.decode(buf);
    drain(chunk.iterator(...ALL, 'forward'));
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(ChunkFormatError);
}

/** Rewrites the checksums of a chunk in place, so a reader must rely on structural checks. */
function fixChecksums(buf: Buffer): void {
  const footer = buf.length - 16;
  const metaOffset = buf.readUInt32LE(footer);
  const blocks = buf.readUInt32LE(metaOffset);
  for (let i = 0; i < blocks; i++) {
    const m = metaOffset + 4 + 40 * i;
    const offset = buf.readUInt32LE(m + 24);
    const length = buf.readUInt32LE(m + 28);
    buf.writeUInt32LE(crc32(buf.subarray(offset, offset + length)), m + 36);
  }
  const metaCrc = crc32(buf.subarray(metaOffset, footer), crc32(buf.subarray(0, 8)));
  buf.writeUInt32LE(metaCrc, footer + 8);
}

describe('chunk format validation', () => {
  it("writes zlib's CRC-32 for blocks and meta, as chunks written before have", () => {
    for (const encoding of CHUNK_ENCODINGS) {
      const chunk = sampleChunk(encoding);
      const resealed = Buffer.from(chunk);
      fixChecksums(resealed);
      expect(resealed.equals(chunk)).toBe(true);
    }
  });

  for (const encoding of CHUNK_ENCODINGS) {
    it(`rejects every single flipped byte with ${encoding}`, () => {
      const good = sampleChunk(encoding);
      expect(MemChunk.decode(good).entryCount).toBe(12);
      for (let pos = 0; pos < good.length; pos++) {
        for (const mask of [0x01, 0x80]) {
          const bad = Buffer.from(good);
          bad[pos] ^= mask;
          expectFormatError(bad);
        }
      }
    });

    it(`rejects every truncation and trailing garbage with ${encoding}`, () => {
      const good = sampleChunk(encoding);
      for (let len = 0; len < good.length; len++) expectFormatError(good.subarray(0, len));
      expectFormatError(Buffer.concat([good, Buffer.from([0])]));
      expectFormatError(Buffer.concat([Buffer.from([0]), good]));
    });
  }

  it('rejects a block whose lengths are corrupt even when its checksum matches', () => {
    const c = new MemChunk({ encoding: 'none' });
    c.append(1n, Buffer.from('hello'), EMPTY_LABELS);
    c.append(2n, Buffer.from('world'), labelsFromRecord({ k: 'v' }));
    const good = c.encode();
    // Payload starts at 8: two int64 timestamps, then the line-length varints.
    for (const [pos, value] of [
      [24, 0x7f], // first line length far beyond the block
      [24, 0x80], // unterminated varint
      [26, 0x09], // metadata pair count larger than the ids present
      [28, 0x05], // metadata symbol id out of range
      [8, 0x09], // timestamps out of order / not matching the meta
    ] as const) {
      const bad = Buffer.from(good);
      bad[pos] = value;
      fixChecksums(bad);
      expectFormatError(bad);
    }
  });

  it('reads a block’s metadata pairs only when some entry’s metadata is read', () => {
    const c = new MemChunk({ encoding: 'none' });
    c.append(1n, Buffer.from('hello'), EMPTY_LABELS);
    c.append(2n, Buffer.from('world'), labelsFromRecord({ k: 'v' }));
    const bad = c.encode();
    bad[28] = 0x05; // metadata symbol id out of range (as above)
    fixChecksums(bad);
    const lines: string[] = [];
    const it = MemChunk.decode(bad).iterator(...ALL, 'forward');
    while (it.next()) lines.push(it.line.toString());
    expect(lines).toEqual(['hello', 'world']);
    const again = MemChunk.decode(bad).iterator(...ALL, 'forward');
    expect(again.next()).toBe(true);
    expect(() => again.structuredMetadata).toThrow(ChunkFormatError);
  });

  it('decompresses only the blocks that overlap the query range', () => {
    const c = new MemChunk({ encoding: 'none', blockSize: 50 });
    for (let i = 0; i < 40; i++)
      c.append(BigInt(i), Buffer.from(`entry number ${i}`), EMPTY_LABELS);
    const bytes = c.encode();
    // Break the first block's line-length varint while keeping every checksum valid.
    const metaOffset = bytes.readUInt32LE(bytes.length - 16);
    const firstBlockEntries = bytes.readUInt32LE(metaOffset + 4 + 16);
    bytes[8 + 8 * firstBlockEntries] = 0x7f;
    fixChecksums(bytes);
    const sut = MemChunk.decode(bytes);
    expect(drain(sut.iterator(30n, 40n, 'backward')).map((e) => e.ts)).toHaveLength(10);
    expect(() => drain(sut.iterator(0n, 40n, 'forward'))).toThrow(ChunkFormatError);
  });

  it('rejects an unknown version and encoding with a clear message', () => {
    const good = sampleChunk('snappy');
    const badVersion = Buffer.from(good);
    badVersion[4] = 9;
    fixChecksums(badVersion);
    expect(() => MemChunk.decode(badVersion)).toThrow(/unsupported chunk version 9/);
    const badEncoding = Buffer.from(good);
    badEncoding[5] = 42;
    fixChecksums(badEncoding);
    expect(() => MemChunk.decode(badEncoding)).toThrow(/unknown chunk encoding byte 42/);
  });

  it('never throws anything but ChunkFormatError on arbitrary bytes', () => {
    const good = sampleChunk('gzip');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          // Valid header and footer magic around random bytes.
          fc
            .uint8Array({ maxLength: 200 })
            .map((mid) =>
              Buffer.concat([good.subarray(0, 8), mid, good.subarray(good.length - 16)]),
            ),
        ),
        (bytes) => {
          expectFormatError(Buffer.from(bytes));
        },
      ),
      { numRuns: 300 },
    );
  });
});
