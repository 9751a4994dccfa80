/**
 * Index file format v1 (docs/storage.md has the full layout):
 *
 *   "LSIX" | version u8 = 1 | flags u8 = 1 (gzip body) | gzip(body) | crc32 u32 BE of all before
 *
 * body: symbol table of label names and values, then series with their label references and
 * chunk refs. Everything is checked on read; any mismatch is a CorruptIndexError.
 */
import { promisify } from 'node:util';
import { crc32 } from '@node-rs/crc32';
import { gunzip, gzip } from 'node:zlib';
import type { LabelPair } from '@logsvc/api';
import { BinaryFormatError, BinaryReader, BinaryWriter } from './binary';
import { CorruptIndexError, errorMessage } from './errors';
import type { ChunkRef, SeriesChunkRefs } from './index-model';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

const MAGIC = Buffer.from('LSIX', 'latin1');
export const INDEX_FORMAT_VERSION = 1;
const FLAG_GZIP = 1;
const HEADER_BYTES = 6;
const TRAILER_BYTES = 4;
/** A decoded body larger than this is refused rather than inflated into memory. */
const MAX_BODY_BYTES = 1 << 30;

export async function encodeIndexFile(series: readonly SeriesChunkRefs[]): Promise<Buffer> {
  const body = await gzipAsync(encodeBody(series));
  const out = Buffer.allocUnsafe(HEADER_BYTES + body.length + TRAILER_BYTES);
  MAGIC.copy(out, 0);
  out[4] = INDEX_FORMAT_VERSION;
  out[5] = FLAG_GZIP;
  body.copy(out, HEADER_BYTES);
  out.writeUInt32BE(
    crc32(out.subarray(0, HEADER_BYTES + body.length)) >>> 0,
    HEADER_BYTES + body.length,
  );
  return out;
}

/** Decodes and verifies an index file; `key` names it in errors. Returns the body size too. */
export async function decodeIndexFile(
  key: string,
  data: Buffer,
): Promise<{ series: SeriesChunkRefs[]; bodyBytes: number }> {
  if (data.length < HEADER_BYTES + TRAILER_BYTES || !data.subarray(0, 4).equals(MAGIC)) {
    throw new CorruptIndexError(key, 'not an index file (bad magic)');
  }
  const stored = data.readUInt32BE(data.length - TRAILER_BYTES);
  if (crc32(data.subarray(0, data.length - TRAILER_BYTES)) >>> 0 !== stored) {
    throw new CorruptIndexError(key, 'checksum mismatch');
  }
  if (data[4] !== INDEX_FORMAT_VERSION) {
    throw new CorruptIndexError(key, `unsupported format version ${data[4]}`);
  }
  if (data[5] !== FLAG_GZIP) throw new CorruptIndexError(key, `unsupported flags ${data[5]}`);
  let body: Buffer;
  try {
    body = await gunzipAsync(data.subarray(HEADER_BYTES, data.length - TRAILER_BYTES), {
      maxOutputLength: MAX_BODY_BYTES,
    });
  } catch (err) {
    throw new CorruptIndexError(key, `body does not decompress: ${errorMessage(err)}`);
  }
  try {
    return { series: decodeBody(body), bodyBytes: body.length };
  } catch (err) {
    if (err instanceof BinaryFormatError || err instanceof RangeError) {
      throw new CorruptIndexError(key, err.message);
    }
    throw err;
  }
}

function encodeBody(series: readonly SeriesChunkRefs[]): Buffer {
  const symbols = new Map<string, number>();
  const symbol = (s: string): void => {
    if (!symbols.has(s)) symbols.set(s, symbols.size);
  };
  for (const s of series) {
    for (const p of s.labels) {
      symbol(p.name);
      symbol(p.value);
    }
  }
  const w = new BinaryWriter();
  w.uvarint(symbols.size);
  for (const s of symbols.keys()) w.string(s);
  w.uvarint(series.length);
  for (const s of series) {
    w.bytes(Buffer.from(s.fingerprint, 'hex'));
    w.uvarint(s.labels.length);
    for (const p of s.labels) {
      w.uvarint(symbols.get(p.name) as number);
      w.uvarint(symbols.get(p.value) as number);
    }
    w.uvarint(s.chunks.length);
    for (const c of s.chunks) {
      w.i64(c.fromNs);
      w.i64(c.throughNs);
      w.uvarint(c.entries);
      w.uvarint(c.size);
      w.uvarint(c.uncompressedSize);
      w.u32(c.checksum);
      w.string(c.key);
    }
  }
  return w.finish();
}

function decodeBody(body: Buffer): SeriesChunkRefs[] {
  const r = new BinaryReader(body);
  const symbolCount = r.count(1);
  const symbols = new Array<string>(symbolCount);
  for (let i = 0; i < symbolCount; i++) symbols[i] = r.string();
  const sym = (): string => {
    const i = r.uvarint();
    if (i >= symbolCount) throw new BinaryFormatError(`symbol ${i} out of range`);
    return symbols[i];
  };
  const seriesCount = r.count(10);
  const out: SeriesChunkRefs[] = new Array(seriesCount);
  for (let s = 0; s < seriesCount; s++) {
    const fingerprint = r.bytes(8).toString('hex');
    const labelCount = r.count(2);
    const labels: LabelPair[] = new Array(labelCount);
    for (let l = 0; l < labelCount; l++) {
      labels[l] = { name: sym(), value: sym() };
      if (l > 0 && labels[l - 1].name >= labels[l].name) {
        throw new BinaryFormatError(`series ${s}: labels not sorted and unique`);
      }
    }
    const chunkCount = r.count(24);
    const chunks: ChunkRef[] = new Array(chunkCount);
    for (let c = 0; c < chunkCount; c++) {
      const fromNs = r.i64();
      const throughNs = r.i64();
      chunks[c] = {
        fromNs,
        throughNs,
        entries: r.uvarint(),
        size: r.uvarint(),
        uncompressedSize: r.uvarint(),
        checksum: r.u32(),
        key: r.string(),
      };
    }
    out[s] = { labels, fingerprint, chunks };
  }
  if (r.remaining !== 0) throw new BinaryFormatError(`${r.remaining} trailing bytes`);
  return out;
}
