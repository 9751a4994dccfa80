import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import * as snappy from 'snappy';
import { PushError, badRequest } from './errors';

const gunzipAsync = promisify(zlib.gunzip);
const inflateRawAsync = promisify(zlib.inflateRaw);

/** Loki's message (and HTTP 413) when a body decompresses to more than the limit. */
export function bodyTooLarge(size: number, limit: number): PushError {
  return new PushError('too_large', `request body too large: ${size} bytes, limit: ${limit} bytes`);
}

/**
 * The uncompressed length a snappy block declares in its varint header, or -1 when the header
 * is malformed. Reading it first lets us refuse a decompression bomb before allocating.
 */
export function snappyDeclaredLength(block: Uint8Array): number {
  let result = 0;
  for (let i = 0, shift = 0; i < 5 && i < block.length; i++, shift += 7) {
    const b = block[i];
    result += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) return result > 0xffffffff ? -1 : result;
  }
  return -1;
}

/** Go's snappy `ErrCorrupt`: Loki answers every malformed snappy body with this text. */
const SNAPPY_CORRUPT = 'snappy: corrupt input';

// A copied, ordinary Buffer: the binding's default external buffers are much slower for V8.
const SNAPPY_BUFFER = { asBuffer: true, copyOutputData: true } as const;

/** The block's declared uncompressed length, refusing a malformed header or a bomb. */
function checkSnappyHeader(block: Buffer, maxBytes: number): number {
  const declared = snappyDeclaredLength(block);
  if (declared < 0) throw badRequest(SNAPPY_CORRUPT);
  if (declared > maxBytes) throw bodyTooLarge(declared, maxBytes);
  return declared;
}

function uncompressChecked(block: Buffer): Buffer {
  try {
    return snappy.uncompressSync(block, SNAPPY_BUFFER) as Buffer;
  } catch {
    throw badRequest(SNAPPY_CORRUPT);
  }
}

/**
 * Below this many output bytes a block is decompressed on the event loop: at over 1 GB/s that
 * is well under a millisecond, cheaper than the hand-off to the libuv pool and back.
 */
const SYNC_SNAPPY_BYTES = 1024 * 1024;

/** Decompresses a snappy block (not framed), large ones off the event loop, refusing bombs first. */
export async function snappyUncompress(block: Buffer, maxBytes: number): Promise<Buffer> {
  if (checkSnappyHeader(block, maxBytes) <= SYNC_SNAPPY_BYTES) return uncompressChecked(block);
  try {
    return (await snappy.uncompress(block, SNAPPY_BUFFER)) as Buffer;
  } catch {
    throw badRequest(SNAPPY_CORRUPT);
  }
}

/** Synchronous variant for small bodies and benchmarks. */
export function snappyUncompressSync(block: Buffer, maxBytes: number): Buffer {
  checkSnappyHeader(block, maxBytes);
  return uncompressChecked(block);
}

function isTooLarge(err: unknown): boolean {
  return (
    err instanceof RangeError ||
    (typeof err === 'object' &&
      err !== null &&
      (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
  );
}

async function boundedInflate(
  run: (body: Buffer, opts: zlib.ZlibOptions) => Promise<Buffer>,
  what: string,
  body: Buffer,
  maxBytes: number,
): Promise<Buffer> {
  try {
    return await run(body, { maxOutputLength: Math.max(1, maxBytes) });
  } catch (err) {
    if (isTooLarge(err))
      throw new PushError(
        'too_large',
        `request body too large: more than ${maxBytes} bytes after ${what}, limit: ${maxBytes} bytes`,
      );
    throw badRequest(goInflateError(what, err instanceof Error ? err.message : String(err)));
  }
}

/**
 * zlib's message as Go's compress/gzip and compress/flate word it, which is what Loki answers:
 * a bad header, a bad checksum and a truncated stream.
 */
function goInflateError(what: string, message: string): string {
  if (message === 'unexpected end of file') return 'unexpected EOF';
  if (what === 'gzip' && message === 'incorrect header check') return 'gzip: invalid header';
  if (what === 'gzip' && message === 'incorrect data check') return 'gzip: invalid checksum';
  return `${what}: ${message}`;
}

/** gunzip with an output bound; a bomb stops at `maxBytes` with a 413. */
export function gunzipBounded(body: Buffer, maxBytes: number): Promise<Buffer> {
  return boundedInflate(gunzipAsync, 'gzip', body, maxBytes);
}

/** Raw DEFLATE (Go's `compress/flate`), as Loki accepts for `Content-Encoding: deflate`. */
export function inflateRawBounded(body: Buffer, maxBytes: number): Promise<Buffer> {
  return boundedInflate(inflateRawAsync, 'deflate', body, maxBytes);
}
