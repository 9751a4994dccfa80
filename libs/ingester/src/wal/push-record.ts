import { endianness } from 'node:os';
import {
  EMPTY_LABELS,
  type LabelPair,
  type Labels,
  type LogEntry,
  type PushBodySource,
} from '@logsvc/api';
import type { SlabPool } from '@logsvc/chunk';
import { ByteReader, DecodeError, uvarintSize } from './codec';
import { allocFrame, bytesSize, RecordType, sealFrame } from './frame';
import { PairTable } from './pair-table';
import { BodyLines, lineRefSize, readBody } from './push-body';
import { decodePushRecordV1 } from './push-record-v1';
import type { SeriesNames, SeriesRefs, WalSeriesSlot } from './series-refs';

const LITTLE_ENDIAN = endianness() === 'LE';

export interface WalStreamInput {
  /** The canonical `{a="1"}` text of the stream's labels, as UTF-8. */
  readonly labelsText: Buffer;
  readonly entries: readonly LogEntry[];
  /** Where the stream keeps its series number, for records that name streams by number. */
  readonly series?: WalSeriesSlot;
}

export interface DecodedPushStream {
  readonly labelsText: string;
  readonly entries: LogEntry[];
}

export interface DecodedPush {
  readonly seq: number;
  readonly tenant: string;
  readonly streams: DecodedPushStream[];
  /** Streams left out because their series number was never defined (see decodePushRecord). */
  readonly unknownSeries: number;
}

/** Per-entry working space of the encoder, reused across records (encoding is synchronous). */
class Scratch {
  ts = new BigInt64Array(1024);
  /** The bytes of `ts`, to copy a stream's timestamps into a record without a new view. */
  tsBytes = new Uint8Array(this.ts.buffer);
  /** Per entry: where its pair ids start in `ids`. */
  idStart = new Uint32Array(1024);
  /** Per entry: its line's offset in the push body, -1 when not a view of it. */
  lineAt = new Int32Array(1024);
  ids = new Uint32Array(1024);
  /** Per stream: its series number as written (see `SeriesRefs.wireRef`). */
  wireRefs = new Float64Array(256);

  reserveEntries(n: number): void {
    if (n <= this.ts.length) return;
    const cap = Math.max(n, this.ts.length * 2);
    this.ts = new BigInt64Array(cap);
    this.tsBytes = new Uint8Array(this.ts.buffer);
    this.idStart = new Uint32Array(cap);
    this.lineAt = new Int32Array(cap);
  }

  reserveStreams(n: number): void {
    if (n > this.wireRefs.length)
      this.wireRefs = new Float64Array(Math.max(n, this.wireRefs.length * 2));
  }

  reserveIds(n: number): void {
    if (n <= this.ids.length) return;
    const bigger = new Uint32Array(Math.max(n, this.ids.length * 2));
    bigger.set(this.ids);
    this.ids = bigger;
  }
}

const scratch = new Scratch();

/** Writes `n` (below 2^32) as a uvarint at `pos`; returns the offset after it. */
function putUvarint(buf: Buffer, pos: number, n: number): number {
  while (n > 0x7f) {
    buf[pos++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  buf[pos++] = n;
  return pos;
}

/**
 * One push request (only its accepted entries) as a framed record: the record's distinct
 * structured-metadata pairs once, then per stream its labels, its timestamps as one block, line
 * lengths, metadata pair numbers and line bytes (layout in the package README). With `refs`
 * the record is of type 6 and names each stream by its series number, writing the label text
 * only where the number is defined; without, of type 5 with the label text of every stream.
 * With `pool`, the frame is cut from it and must be released there once written.
 *
 * With `refs` and the push's `source`, when the lines are mostly views of the decompressed
 * body, the record is of type 7: it holds the received snappy block once, and each line as its
 * offset in the body (lines that are not views are written out). An agent's compressed push
 * is a few times smaller than its lines, so the WAL writes and checksums that much less.
 */
export function encodePushRecord(
  seq: number,
  tenant: string,
  streams: readonly WalStreamInput[],
  pool?: SlabPool,
  refs?: SeriesRefs,
  source?: PushBodySource,
): Buffer {
  let total = 0;
  for (const s of streams) total += s.entries.length;
  scratch.reserveEntries(total);
  scratch.reserveStreams(streams.length);
  const wireRefs = scratch.wireRefs;
  const ts = scratch.ts;
  const idStart = scratch.idStart;
  const lineAt = scratch.lineAt;
  const body = refs === undefined ? null : BodyLines.of(source);
  let lineBytes = 0;
  let viewBytes = 0;
  let refBytes = 0;
  const table = new PairTable();
  let idCount = 0;
  let prevMetadata: Labels | null = null;
  let prevStart = 0;
  let prevSize = 0;
  let size = uvarintSize(streams.length);
  let row = 0;
  for (let k = 0; k < streams.length; k++) {
    const s = streams[k];
    const n = s.entries.length;
    if (refs === undefined) size += bytesSize(s.labelsText);
    else {
      // Only a definition touches the label text: most streams are named by number alone.
      const wire = refs.wireRef(s.series, s.labelsText);
      wireRefs[k] = wire;
      size += uvarintSize(wire) + (wire % 2 === 1 ? bytesSize(s.labelsText) : 0);
    }
    size += uvarintSize(n) + 8 * n;
    for (let i = 0; i < n; i++, row++) {
      const e = s.entries[i];
      ts[row] = e.timestampNs;
      const len = e.line.length;
      size += uvarintSize(len);
      lineBytes += len;
      if (body !== null) {
        const at = body.offsetOf(e.line);
        lineAt[row] = at;
        refBytes += lineRefSize(at);
        if (at >= 0) viewBytes += len;
      }
      const sm = e.structuredMetadata;
      if (sm !== prevMetadata) {
        // Entries of a request usually share one metadata array: number its pairs once.
        prevMetadata = sm;
        prevStart = idCount;
        prevSize = uvarintSize(sm.length);
        scratch.reserveIds(idCount + sm.length);
        for (const p of sm) {
          const id = table.id(p);
          scratch.ids[idCount++] = id;
          prevSize += uvarintSize(id);
        }
      }
      idStart[row] = prevStart;
      size += prevSize;
    }
  }
  const withBody = body !== null && body.worthFor(viewBytes, refBytes);
  size += withBody ? body.recordSize + refBytes + lineBytes - viewBytes : lineBytes;
  const tenantBytes = Buffer.byteLength(tenant, 'utf8');
  const pairs = table.pairs;
  size += 1 + 8 + uvarintSize(tenantBytes) + tenantBytes;
  size += uvarintSize(pairs.length) + table.byteSize;

  const w = allocFrame(size, pool);
  w.u8(
    refs === undefined ? RecordType.Push : withBody ? RecordType.PushRefsBody : RecordType.PushRefs,
  );
  w.u64(seq);
  w.string(tenant, tenantBytes);
  w.uvarint(pairs.length);
  for (const p of pairs) {
    w.string(p.name, Buffer.byteLength(p.name, 'utf8'));
    w.string(p.value, Buffer.byteLength(p.value, 'utf8'));
  }
  if (withBody) {
    w.uvarint(body.source.plain.length);
    w.bytes(body.source.snappy);
  }
  w.uvarint(streams.length);
  const buf = w.buf;
  const ids = scratch.ids;
  row = 0;
  for (let k = 0; k < streams.length; k++) {
    const s = streams[k];
    const entries = s.entries;
    const n = entries.length;
    if (refs === undefined) w.bytes(s.labelsText);
    else {
      const wire = wireRefs[k];
      w.uvarint(wire);
      if (wire % 2 === 1) w.bytes(s.labelsText);
    }
    w.uvarint(n);
    let pos = w.pos;
    if (LITTLE_ENDIAN && n <= 8) {
      // Most streams of a push have a few entries: a loop beats making a view to copy from.
      const tsBytes = scratch.tsBytes;
      for (let i = 8 * row, end = i + 8 * n; i < end; i++) buf[pos++] = tsBytes[i];
    } else if (LITTLE_ENDIAN) {
      buf.set(scratch.tsBytes.subarray(8 * row, 8 * (row + n)), pos);
      pos += 8 * n;
    } else {
      for (let i = 0; i < n; i++) buf.writeBigInt64LE(ts[row + i], pos + 8 * i);
      pos += 8 * n;
    }
    for (let i = 0; i < n; i++) pos = putUvarint(buf, pos, entries[i].line.length);
    for (let i = 0; i < n; i++) {
      const k = entries[i].structuredMetadata.length;
      pos = putUvarint(buf, pos, k);
      for (let j = idStart[row + i], end = j + k; j < end; j++) pos = putUvarint(buf, pos, ids[j]);
    }
    if (withBody) {
      for (let i = 0; i < n; i++) pos = putUvarint(buf, pos, lineAt[row + i] + 1);
    }
    for (let i = 0; i < n; i++) {
      if (withBody && lineAt[row + i] >= 0) continue;
      const line = entries[i].line;
      buf.set(line, pos);
      pos += line.length;
    }
    w.pos = pos;
    row += n;
  }
  return sealFrame(w);
}

/**
 * Decodes a push payload of any type (7, 6 or 5, or 1 from older versions); lines are views
 * (of the record, or of the body a type 7 record holds, decompressed).
 * A type 6 record defines its new series numbers in `names` and looks the others up there; a
 * stream whose number `names` does not know (its definition was lost with a damaged record) is
 * left out and counted in `unknownSeries`.
 */
export function decodePushRecord(payload: Buffer, names?: SeriesNames): DecodedPush {
  if (payload[0] === RecordType.PushV1) return decodePushRecordV1(payload);
  const r = new ByteReader(payload);
  const type = r.u8();
  if (
    type !== RecordType.Push &&
    type !== RecordType.PushRefs &&
    type !== RecordType.PushRefsBody
  ) {
    throw new DecodeError(`unexpected WAL record type ${type}`);
  }
  if (type !== RecordType.Push && names === undefined) {
    throw new DecodeError('a push record with series numbers needs their names to be decoded');
  }
  const seq = r.u64();
  const tenant = r.string();
  const pairs = readPairs(r);
  const body = type === RecordType.PushRefsBody ? readBody(r) : null;
  /** One shared single-pair array per pair number, built when first needed. */
  const singles: (Labels | undefined)[] = new Array<Labels | undefined>(pairs.length);
  const streamCount = r.uvarint();
  const streams: DecodedPushStream[] = [];
  let unknownSeries = 0;
  for (let i = 0; i < streamCount; i++) {
    let labelsText: string | undefined;
    if (type === RecordType.Push) labelsText = r.string();
    else {
      const wire = r.uvarint();
      const ref = Math.floor(wire / 2);
      if (wire % 2 === 1) {
        labelsText = r.string();
        names!.set(ref, labelsText);
      } else labelsText = names!.get(ref);
    }
    const n = r.uvarint();
    if (8 * n > r.end - r.pos) throw new DecodeError('push record too short for its timestamps');
    const ts = readTimestamps(r, n);
    const lengths = new Uint32Array(n);
    let lineBytes = 0;
    for (let j = 0; j < n; j++) {
      lengths[j] = r.uvarint();
      lineBytes += lengths[j];
    }
    const metadata: Labels[] = new Array<Labels>(n);
    for (let j = 0; j < n; j++) {
      const k = r.uvarint();
      if (k === 0) metadata[j] = EMPTY_LABELS;
      else if (k === 1) {
        const id = pairId(r, pairs.length);
        metadata[j] = singles[id] ??= Object.freeze([pairs[id]]);
      } else {
        if (k > r.end - r.pos) throw new DecodeError('metadata count exceeds push record');
        const sm: LabelPair[] = [];
        for (let m = 0; m < k; m++) sm.push(pairs[pairId(r, pairs.length)]);
        metadata[j] = sm;
      }
    }
    const at = body === null ? null : readLineRefs(r, lengths, body.length);
    if (at !== null) lineBytes = inlineBytes(lengths, at);
    if (lineBytes > r.end - r.pos) throw new DecodeError('line lengths exceed push record');
    const entries: LogEntry[] = new Array<LogEntry>(n);
    let pos = r.pos;
    for (let j = 0; j < n; j++) {
      let line: Buffer;
      if (at !== null && at[j] >= 0) line = body!.subarray(at[j], at[j] + lengths[j]);
      else {
        line = payload.subarray(pos, pos + lengths[j]);
        pos += lengths[j];
      }
      entries[j] = { timestampNs: ts[j], line, structuredMetadata: metadata[j] };
    }
    r.pos = pos;
    if (labelsText === undefined) unknownSeries++;
    else streams.push({ labelsText, entries });
  }
  if (!r.done) throw new DecodeError('trailing bytes after push record');
  return { seq, tenant, streams, unknownSeries };
}

/** A stream's line offsets in the body (-1: written in the record), each checked to fit. */
function readLineRefs(r: ByteReader, lengths: Uint32Array, bodyLength: number): Float64Array {
  const at = new Float64Array(lengths.length);
  for (let j = 0; j < lengths.length; j++) {
    at[j] = r.uvarint() - 1;
    if (at[j] >= 0 && at[j] + lengths[j] > bodyLength) {
      throw new DecodeError(`line at ${at[j]} runs past the push body (${bodyLength} bytes)`);
    }
  }
  return at;
}

/** Bytes of the lines a body record writes out (those with no offset in the body). */
function inlineBytes(lengths: Uint32Array, at: Float64Array): number {
  let bytes = 0;
  for (let j = 0; j < lengths.length; j++) if (at[j] < 0) bytes += lengths[j];
  return bytes;
}

function readPairs(r: ByteReader): LabelPair[] {
  const count = r.uvarint();
  // Every pair takes at least two bytes: refuse counts the record cannot hold.
  if (2 * count > r.end - r.pos) throw new DecodeError('pair count exceeds push record');
  const pairs: LabelPair[] = new Array<LabelPair>(count);
  for (let i = 0; i < count; i++) pairs[i] = Object.freeze({ name: r.string(), value: r.string() });
  return pairs;
}

function pairId(r: ByteReader, count: number): number {
  const id = r.uvarint();
  if (id >= count) throw new DecodeError(`metadata pair ${id} out of range (${count} pairs)`);
  return id;
}

function readTimestamps(r: ByteReader, n: number): BigInt64Array {
  const ts = new BigInt64Array(n);
  if (LITTLE_ENDIAN) {
    new Uint8Array(ts.buffer).set(r.buf.subarray(r.pos, r.pos + 8 * n));
    r.pos += 8 * n;
  } else {
    for (let i = 0; i < n; i++) ts[i] = r.i64();
  }
  return ts;
}
