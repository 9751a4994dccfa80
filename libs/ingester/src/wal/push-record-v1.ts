import { EMPTY_LABELS, type LabelPair, type Labels, type LogEntry } from '@logsvc/api';
import { ByteReader, type ByteWriter, DecodeError, uvarintSize } from './codec';
import { allocFrame, bytesSize, RecordType, sealFrame, stringSize } from './frame';
import type { DecodedPush, DecodedPushStream, WalStreamInput } from './push-record';

/*
 * Push records of type 1, as written before the pair-table format (type 5): structured
 * metadata inline with every entry. Replay still reads them, so a WAL written by an older
 * version survives an upgrade; the encoder exists to produce such WALs in tests.
 */

function metadataSize(sm: Labels): number {
  let size = uvarintSize(sm.length);
  for (const p of sm) size += stringSize(p.name) + stringSize(p.value);
  return size;
}

function writeMetadata(w: ByteWriter, sm: Labels): void {
  w.uvarint(sm.length);
  for (const p of sm) {
    w.string(p.name, Buffer.byteLength(p.name, 'utf8'));
    w.string(p.value, Buffer.byteLength(p.value, 'utf8'));
  }
}

function readMetadata(r: ByteReader): Labels {
  const n = r.uvarint();
  if (n === 0) return EMPTY_LABELS;
  const out: LabelPair[] = [];
  for (let i = 0; i < n; i++) out.push({ name: r.string(), value: r.string() });
  return out;
}

/** One push as a framed type 1 record. */
export function encodePushRecordV1(
  seq: number,
  tenant: string,
  streams: readonly WalStreamInput[],
): Buffer {
  const tenantBytes = Buffer.byteLength(tenant, 'utf8');
  let size = 1 + 8 + uvarintSize(tenantBytes) + tenantBytes + uvarintSize(streams.length);
  for (const s of streams) {
    size += bytesSize(s.labelsText) + uvarintSize(s.entries.length);
    for (const e of s.entries) size += 8 + bytesSize(e.line) + metadataSize(e.structuredMetadata);
  }
  const w = allocFrame(size);
  w.u8(RecordType.PushV1);
  w.u64(seq);
  w.string(tenant, tenantBytes);
  w.uvarint(streams.length);
  for (const s of streams) {
    w.bytes(s.labelsText);
    w.uvarint(s.entries.length);
    for (const e of s.entries) {
      w.i64(e.timestampNs);
      w.bytes(e.line);
      writeMetadata(w, e.structuredMetadata);
    }
  }
  return sealFrame(w);
}

/** Decodes a type 1 push payload; lines are views into `payload`. */
export function decodePushRecordV1(payload: Buffer): DecodedPush {
  const r = new ByteReader(payload);
  const type = r.u8();
  if (type !== RecordType.PushV1) throw new DecodeError(`unexpected WAL record type ${type}`);
  const seq = r.u64();
  const tenant = r.string();
  const streamCount = r.uvarint();
  const streams: DecodedPushStream[] = [];
  for (let i = 0; i < streamCount; i++) {
    const labelsText = r.string();
    const n = r.uvarint();
    const entries: LogEntry[] = [];
    for (let j = 0; j < n; j++) {
      const timestampNs = r.i64();
      const line = r.bytes();
      entries.push({ timestampNs, line, structuredMetadata: readMetadata(r) });
    }
    streams.push({ labelsText, entries });
  }
  if (!r.done) throw new DecodeError('trailing bytes after push record');
  return { seq, tenant, streams, unknownSeries: 0 };
}
