import { EMPTY_LABELS, type LabelPair, type Labels } from '@logsvc/api';
import { type Direction, MemChunk, WholeLineCursor } from '@logsvc/chunk';

/** What to read from a chunk: entries with fromNs <= ts < throughNs whose line holds `needle`. */
export interface ScanRange {
  readonly fromNs: bigint;
  readonly throughNs: bigint;
  readonly direction: Direction;
  /** Empty = every entry in range. */
  readonly needle: Uint8Array;
}

/**
 * The entries a chunk's cursor returns, in the cursor's order, held column-wise in buffers that
 * can be transferred between threads. Entry i's line is `lines[lineEnds[i-1] .. lineEnds[i])`.
 */
export interface ScanResult {
  readonly count: number;
  readonly ts: BigInt64Array;
  readonly lineEnds: Uint32Array;
  readonly lines: Uint8Array;
  /**
   * Structured metadata, null when no entry has any: entry i's pairs are
   * `ids[ends[i-1] .. ends[i])` as name, value, name, value, … indices into `strings` (each
   * distinct string once: entries mostly repeat the same few, and strings are costly to send).
   */
  readonly sm: {
    readonly ends: Uint32Array;
    readonly ids: Uint32Array;
    readonly strings: string[];
  } | null;
  /** Lines and line bytes the chunk's cursor passed over in range, matched or not. */
  readonly scannedLines: number;
  readonly scannedBytes: number;
}

/** A growable column of line bytes in a buffer that owns its memory (transferable). */
class ByteColumn {
  bytes = new Uint8Array(0);
  length = 0;

  push(src: Uint8Array): void {
    const need = this.length + src.length;
    if (need > this.bytes.length) {
      const size = Math.max(need, this.bytes.length * 2, 16 * 1024);
      const grown = new Uint8Array(new ArrayBuffer(size));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    this.bytes.set(src, this.length);
    this.length = need;
  }
}

/**
 * Decodes one chunk and drains its cursor over `range` into a ScanResult. What a worker thread
 * runs; it gives exactly the entries `MemChunk.decode(data).iterator(...)` would.
 * Throws ChunkFormatError on corrupt bytes.
 */
export function scanChunk(data: Uint8Array, range: ScanRange): ScanResult {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const needle = Buffer.from(range.needle.buffer, range.needle.byteOffset, range.needle.length);
  const cursor = MemChunk.decode(buf).iterator(
    range.fromNs,
    range.throughNs,
    range.direction,
    // Each line is copied into `lines` before the next entry: columnar lines may be read into
    // reused buffers.
    needle.length > 0 ? { lineContains: needle, transientLines: true } : { transientLines: true },
  );
  // Most chunks hold no match of a rare needle: start empty, so they send back nothing.
  let cap = 0;
  let ts = new BigInt64Array(cap);
  let lineEnds = new Uint32Array(cap);
  const lines = new ByteColumn();
  let smEnds: Uint32Array | null = null;
  let smIds = new Uint32Array(0);
  let smCount = 0;
  const smStrings: string[] = [];
  const smIndex = new Map<string, number>();
  const intern = (v: string): void => {
    let id = smIndex.get(v);
    if (id === undefined) {
      id = smStrings.length;
      smStrings.push(v);
      smIndex.set(v, id);
    }
    if (smCount === smIds.length) {
      const grown = new Uint32Array(Math.max(64, smIds.length * 2));
      grown.set(smIds);
      smIds = grown;
    }
    smIds[smCount++] = id;
  };
  let count = 0;
  while (cursor.next()) {
    if (count === cap) {
      cap = Math.max(64, cap * 2);
      const t = new BigInt64Array(cap);
      t.set(ts);
      ts = t;
      const e = new Uint32Array(cap);
      e.set(lineEnds);
      lineEnds = e;
      if (smEnds !== null) {
        const s = new Uint32Array(cap);
        s.set(smEnds);
        smEnds = s;
      }
    }
    ts[count] = cursor.timestampNs;
    lines.push(cursor.line);
    lineEnds[count] = lines.length;
    const sm = cursor.structuredMetadata;
    if (sm.length > 0) {
      smEnds ??= new Uint32Array(cap); // earlier entries had none: their ends are all 0
      for (const p of sm) {
        intern(p.name);
        intern(p.value);
      }
    }
    if (smEnds !== null) smEnds[count] = smCount;
    count++;
  }
  return {
    count,
    ts,
    lineEnds,
    lines: lines.bytes,
    sm: smEnds === null ? null : { ends: smEnds, ids: smIds, strings: smStrings },
    scannedLines: cursor.scanned.lines,
    scannedBytes: cursor.scanned.bytes,
  };
}

/** The ArrayBuffers of a result, to transfer rather than copy. */
export function transferList(r: ScanResult): ArrayBuffer[] {
  if (r.count === 0) return [];
  const out = [r.ts.buffer, r.lineEnds.buffer, r.lines.buffer] as ArrayBuffer[];
  if (r.sm !== null) out.push(r.sm.ends.buffer as ArrayBuffer, r.sm.ids.buffer as ArrayBuffer);
  return out;
}

const EMPTY_LINE = Buffer.alloc(0);

/** Replays a ScanResult as a cursor: the same entries, in the same order, as the chunk's. */
export class ScanResultCursor extends WholeLineCursor {
  private i = -1;
  private lineView: Buffer = EMPTY_LINE;
  private readonly lines: Buffer;
  /** The structured metadata built last, and where its ids are. */
  private lastSm: { start: number; end: number; labels: Labels } | null = null;

  constructor(private readonly result: ScanResult) {
    super();
    const l = result.lines;
    this.lines = Buffer.from(l.buffer, l.byteOffset, l.byteLength);
  }

  get timestampNs(): bigint {
    return this.i >= 0 && this.i < this.result.count ? this.result.ts[this.i] : 0n;
  }

  get line(): Buffer {
    return this.lineView;
  }

  get structuredMetadata(): Labels {
    const sm = this.result.sm;
    const i = this.i;
    if (sm === null || i < 0 || i >= this.result.count) return EMPTY_LABELS;
    const start = i === 0 ? 0 : sm.ends[i - 1];
    const end = sm.ends[i];
    if (start === end) return EMPTY_LABELS;
    // Entries mostly carry the same pairs as the one before: give the same (immutable) array.
    const last = this.lastSm;
    if (last !== null && sameIds(sm.ids, last.start, last.end, start, end)) {
      last.start = start;
      last.end = end;
      return last.labels;
    }
    const out: LabelPair[] = [];
    for (let k = start; k < end; k += 2) {
      out.push({ name: sm.strings[sm.ids[k]], value: sm.strings[sm.ids[k + 1]] });
    }
    this.lastSm = { start, end, labels: out };
    return out;
  }

  next(): boolean {
    const r = this.result;
    if (this.i >= r.count) return false;
    this.i++;
    if (this.i === r.count) {
      this.lineView = EMPTY_LINE;
      return false;
    }
    const start = this.i === 0 ? 0 : r.lineEnds[this.i - 1];
    this.lineView = this.lines.subarray(start, r.lineEnds[this.i]);
    return true;
  }
}

function sameIds(ids: Uint32Array, aStart: number, aEnd: number, bStart: number, bEnd: number) {
  if (aEnd - aStart !== bEnd - bStart) return false;
  for (let k = 0; k < aEnd - aStart; k++) if (ids[aStart + k] !== ids[bStart + k]) return false;
  return true;
}
