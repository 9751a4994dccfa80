import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import { gunzipSync, gzip, gzipSync } from 'node:zlib';
import * as lz4 from 'lz4-napi';
import * as snappy from 'snappy';
import * as zstd from 'zstd-napi';
import { DCtx } from 'zstd-napi/binding';
import { ChunkFormatError } from './errors';
import type { ChunkEncoding } from './options';

interface Codec {
  /** The encoding byte written in the chunk header. */
  readonly id: number;
  compress(data: Buffer): Buffer;
  /** The same compression on the libuv thread pool; absent when the binding has none. */
  compressAsync?(data: Buffer): Promise<Buffer>;
  /** `expectedLength`: the size the caller's meta records (a codec may decode into exactly it). */
  decompress(data: Buffer, expectedLength: number): Buffer;
}

const gzipAsync = promisify(gzip);

// snappy's native binding hands back external (uncopied) buffers by default, which V8 tracks
// slowly; copying into an ordinary Buffer measured ~8x faster to decompress a 256 KB block.
const SNAPPY_COPY = { copyOutputData: true } as const;

/**
 * One zstd compression context per thread, reused, at level 1: on the bench's mixed lines in
 * 256 KB blocks it gave the bytes of zstd-napi's default level 3 (11.4 MB for 52 MB) for about
 * 20 % less CPU, paid where columnar lines are compressed: the flush's re-encode and the
 * compactor.
 */
const zstdCompress = zstdAtLevel(1);

const CODECS: Record<ChunkEncoding, Codec> = {
  none: { id: 0, compress: (d) => d, decompress: (d) => d },
  gzip: {
    id: 1,
    compress: (d) => gzipSync(d),
    compressAsync: (d) => gzipAsync(d),
    decompress: (d) => gunzipSync(d),
  },
  snappy: {
    id: 2,
    compress: (d) => snappy.compressSync(d, SNAPPY_COPY),
    compressAsync: (d) => snappy.compress(d, SNAPPY_COPY),
    decompress: (d) => snappy.uncompressSync(d, { asBuffer: true, ...SNAPPY_COPY }) as Buffer,
  },
  // lz4 block format with the uncompressed length prepended (lz4_flex compress_prepend_size).
  lz4: {
    id: 3,
    compress: (d) => lz4.compressSync(d),
    compressAsync: (d) => lz4.compress(d),
    decompress: (d) => lz4.uncompressSync(d),
  },
  zstd: { id: 4, compress: zstdCompress, decompress: zstdDecompress },
};

/** Compresses with one zstd context at `level`, made on first use and reused on this thread. */
function zstdAtLevel(level: number): (data: Buffer) => Buffer {
  let context: zstd.Compressor | null = null;
  return (data) => {
    if (context === null) {
      context = new zstd.Compressor();
      context.setParameters({ compressionLevel: level });
    }
    return context.compress(data);
  };
}

/** One zstd context per thread, reused: a block is decoded in one call, on the calling thread. */
let zstdContext: DCtx | null = null;

/**
 * zstd straight into a buffer of the size the meta records: no frame header parsed for a size
 * to allocate, no parameters set per call (zstd-napi's `decompress` does both, about a tenth
 * of a block's decode); a frame that decodes to more does not fit and fails, one that decodes
 * to fewer bytes fails the caller's length check.
 */
function zstdDecompress(data: Buffer, expectedLength: number): Buffer {
  const out = Buffer.allocUnsafe(expectedLength);
  const written = (zstdContext ??= new DCtx()).decompress(out, data);
  return written === expectedLength ? out : out.subarray(0, written);
}

/** Whether `decompressInto` can write this encoding's bytes into a given buffer. */
export function decompressesInPlace(encoding: ChunkEncoding): boolean {
  return encoding === 'zstd';
}

/**
 * Decompresses `data` into `out`, which must be exactly the decompressed size; false (nothing
 * promised about `out`) for encodings that cannot write in place (only zstd can). Any codec
 * failure is a format error, as for `decompress`.
 */
export function decompressInto(encoding: ChunkEncoding, data: Buffer, out: Buffer): boolean {
  if (!decompressesInPlace(encoding)) return false;
  let written: number;
  try {
    written = (zstdContext ??= new DCtx()).decompress(out, data);
  } catch (err) {
    throw new ChunkFormatError(`${encoding} decompression failed: ${(err as Error).message}`);
  }
  if (written !== out.length)
    throw new ChunkFormatError('zstd column size does not match its meta');
  return true;
}

const BY_ID = new Map<number, ChunkEncoding>(
  (Object.keys(CODECS) as ChunkEncoding[]).map((name) => [CODECS[name].id, name]),
);

export function encodingId(encoding: ChunkEncoding): number {
  return CODECS[encoding].id;
}

export function encodingFromId(id: number): ChunkEncoding {
  const name = BY_ID.get(id);
  if (name === undefined) throw new ChunkFormatError(`unknown chunk encoding byte ${id}`);
  return name;
}

export function compress(encoding: ChunkEncoding, data: Buffer): Buffer {
  return CODECS[encoding].compress(data);
}

/**
 * Blocks cut from a head block are compressed at zstd's fast level −1, not 1: the ingest pays
 * for every cut on the push path, and a query over the ingesters' data decodes the block again
 * on each read. On the bench's mixed lines in 64 KiB blocks, one pinned core: level −1 gives
 * 15.5 MB for 52 MB (level 1 11.2, snappy 18.0), compresses at ≈ 600 MB/s (level 1 550–570,
 * snappy 500–600) and decompresses into a reused buffer at ≈ 1.85 GB/s (level 1 1.56).
 * The flush's columnar re-encode and the compactor keep level 1 (`compress`).
 */
const zstdCutCompress = zstdAtLevel(-1);

/** Compresses a block just cut from a head block (same codecs and bytes format as `compress`). */
export function compressCutBlock(encoding: ChunkEncoding, data: Buffer): Buffer {
  return encoding === 'zstd' ? zstdCutCompress(data) : CODECS[encoding].compress(data);
}

/**
 * With one CPU, a thread pool compression only adds the hand-off (for a 64 KiB snappy block
 * about 4× the CPU of compressing it in place): the event loop compresses itself then.
 */
const OFFLOAD_COMPRESSION = availableParallelism() > 1;

/**
 * Starts compressing off the event loop (same bytes as `compress`); null when the encoding
 * has no asynchronous variant (none, zstd), or the process has one CPU, and `compress` has
 * to be used.
 */
export function compressAsync(encoding: ChunkEncoding, data: Buffer): Promise<Buffer> | null {
  const codec = CODECS[encoding];
  return OFFLOAD_COMPRESSION && codec.compressAsync ? codec.compressAsync(data) : null;
}

/**
 * An upper bound on the compressed size of `n` bytes for every codec (snappy's worst case is
 * 32 + n + n/6; lz4's and gzip's are smaller).
 */
export function maxCompressedLength(n: number): number {
  return n + Math.ceil(n / 4) + 64;
}

/** Decompresses and checks the result has the recorded length; any codec failure is a format error. */
export function decompress(encoding: ChunkEncoding, data: Buffer, expectedLength: number): Buffer {
  let out: Buffer;
  try {
    out = CODECS[encoding].decompress(data, expectedLength);
  } catch (err) {
    throw new ChunkFormatError(`${encoding} decompression failed: ${(err as Error).message}`);
  }
  if (out.length !== expectedLength) {
    throw new ChunkFormatError(
      `${encoding} block decompressed to ${out.length} bytes, expected ${expectedLength}`,
    );
  }
  return out;
}
