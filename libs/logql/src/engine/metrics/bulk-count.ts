/**
 * Counts a stream's entries into window segments from its runs' meta (`CursorSummary`), for
 * range aggregations whose extractor needs no entry (`BulkExtraction`): a run in the query
 * range that lies inside one segment adds its entry count and line bytes there without being
 * read; any other run has its timestamps (and, for bytes, line lengths) decoded and binned
 * arithmetically, with no object per entry. Where runs overlap in time and a timestamp is in
 * two of them, only the entries at such timestamps are compared by line, and the copies the
 * cursor drops are taken off again. Gives exactly what reading the entries gives.
 */
import { type CursorSummary, offsetsOf, type RunSummary, type RunTimes } from '@logsvc/chunk';
import type { BulkExtraction } from '../../log/sample-extractor';
import type { SegmentGrid, SegmentSeries } from './segment-series';

/** A query range this close to its origin (in ns) has exact offsets (see `RunTimes.offsets`). */
const NEAR = 2 ** 52;

/** A run's entries in the query range: offsets from the origin, and line lengths when known. */
interface InRange {
  readonly run: RunSummary;
  readonly u: Float64Array;
  /** Line lengths, when the run's line offsets were read. */
  readonly lengths: Float64Array | null;
  /** Line bytes in range (the meta's when the lengths were not read: the run lies in range). */
  readonly bytes: number;
  /** Of those, the entries and line bytes the cursor drops as copies. */
  droppedLines: number;
  droppedBytes: number;
}

interface Report {
  readonly run: RunSummary;
  readonly lines: number;
  readonly bytes: number;
  readonly sentLines: number;
  readonly sentBytes: number;
}

export class BulkCounter {
  private readonly covered: Uint8Array;
  private readonly counts: Float64Array;
  private readonly sums: Float64Array;
  /** Segments given a count by the current stream, in the order first reached. */
  private readonly touched: Int32Array;
  private touchedCount = 0;

  constructor(
    private readonly grid: SegmentGrid,
    /** Where offsets count from: the first window's end. */
    private readonly origin: bigint,
    /** The query's read range, `[fromNs, throughNs)`. */
    private readonly fromNs: bigint,
    private readonly throughNs: bigint,
  ) {
    this.covered = grid.coveredSegments();
    const segments = grid.edges.length + 1;
    this.counts = new Float64Array(segments);
    this.sums = new Float64Array(segments);
    this.touched = new Int32Array(segments);
  }

  /**
   * Counts the runs of `summary` for one stream into `series` (made when first needed), and
   * returns the entries counted; null, having counted nothing, when an entry's metadata may give
   * it other labels than `bulk.labels()` (the caller reads the entries then).
   */
  count(summary: CursorSummary, bulk: BulkExtraction, series: () => SegmentSeries): number | null {
    const lo = summary.fromNs > this.fromNs ? summary.fromNs : this.fromNs;
    const hi = summary.throughNs < this.throughNs ? summary.throughNs : this.throughNs;
    const uLo = Number(lo - this.origin);
    const uHi = Number(hi - this.origin);
    if (Math.abs(uLo) >= NEAR || Math.abs(uHi) >= NEAR) return null;
    const bytes = bulk.kind === 'bytes';
    const reports: Report[] = [];
    let kept = 0;
    const runs = summary.runs.filter((r) => r.maxTs >= lo && r.minTs < hi);
    for (let i = 0; i < runs.length;) {
      // Runs whose time ranges overlap: each binned; where a timestamp is in two of them the
      // cursor may drop copies, which only their lines tell: those are taken off after.
      let end = i + 1;
      let maxTs = runs[i].maxTs;
      while (end < runs.length && runs[end].minTs <= maxTs) {
        if (runs[end].maxTs > maxTs) maxTs = runs[end].maxTs;
        end++;
      }
      const group: InRange[] = [];
      for (const run of runs.slice(i, end)) {
        if (end === i + 1 && this.addWhole(run, bulk, lo, hi, reports)) {
          kept += run.entries!;
          continue;
        }
        const whole = run.minTs >= lo && run.maxTs < hi;
        // Line lengths for bytes, or for the statistics of a run partly in range.
        const times = run.times(bytes || !whole || run.lineBytes === undefined);
        if (bulk.blockedBy(times.metadataNames)) return this.drop();
        group.push(inRange(run, times, this.origin, uLo, uHi));
      }
      i = end;
      for (const r of group) kept += this.bin(r, bytes);
      if (group.length > 1) {
        const shared = sharedOffsets(group, this.origin);
        if (shared.length > 0) kept -= this.dropCopies(group, shared, bytes);
      }
      for (const r of group) {
        reports.push({
          run: r.run,
          lines: r.u.length,
          bytes: r.bytes,
          sentLines: r.u.length - r.droppedLines,
          sentBytes: r.bytes - r.droppedBytes,
        });
      }
    }
    const target = this.touchedCount > 0 ? series() : null;
    if (target !== null) this.flush(target);
    for (const r of reports) r.run.report(r.lines, r.bytes, r.sentLines, r.sentBytes);
    return kept;
  }

  /**
   * Takes off the copies the cursor drops at the `shared` offsets (sorted, each in two or more
   * of the group's runs, all binned already): at each, every line after its first sighting, runs
   * by `minTs`, each in its row order. Lines of unequal lengths differ: only at offsets where two
   * entries have lines of one length are lines compared, and only runs holding such an offset
   * are loaded. Returns the entries taken off that some window held.
   */
  private dropCopies(group: InRange[], shared: Float64Array, bytes: boolean): number {
    const suspects = sameLengths(group, shared, this.origin);
    if (suspects.length === 0) return 0;
    const seen = new Map<number, Set<string>>();
    let taken = 0;
    for (const r of group) {
      if (!holdsAny(r.u, suspects)) continue;
      const run = r.run.load();
      const u = offsetsOf(run.ts, run.count, this.origin);
      for (let row = 0; row < run.count; row++) {
        const x = u[row];
        if (!includes(suspects, x)) continue;
        const start = run.lineOffsets[row];
        const end = run.lineOffsets[row + 1];
        const line = run.lines.toString('latin1', start, end);
        let lines = seen.get(x);
        if (lines === undefined) seen.set(x, (lines = new Set()));
        if (!lines.has(line)) {
          lines.add(line);
          continue;
        }
        r.droppedLines++;
        r.droppedBytes += end - start;
        const s = this.grid.segmentOf(x, 0);
        if (this.covered[s] === 0) continue;
        // The segment keeps the line's first sighting: its count stays above zero.
        this.add(s, -1, bytes ? -(end - start) : -1);
        taken++;
      }
    }
    return taken;
  }

  /**
   * Adds a run from its meta alone when it lies in the range inside one segment; false when it
   * does not, or its meta lacks a figure (or its metadata may change its labels: then `bin`
   * finds that out).
   */
  private addWhole(
    run: RunSummary,
    bulk: BulkExtraction,
    lo: bigint,
    hi: bigint,
    reports: Report[],
  ): boolean {
    const { entries, lineBytes, metadataNames } = run;
    if (entries === undefined || metadataNames === undefined) return false;
    if (bulk.kind === 'bytes' && lineBytes === undefined) return false;
    if (run.minTs < lo || run.maxTs >= hi) return false;
    const s = this.grid.segmentOf(Number(run.minTs - this.origin), 0);
    if (s !== this.grid.segmentOf(Number(run.maxTs - this.origin), s)) return false;
    if (bulk.blockedBy(metadataNames)) return false;
    if (this.covered[s] === 1) this.add(s, entries, bulk.kind === 'bytes' ? lineBytes! : entries);
    reports.push({
      run,
      lines: entries,
      bytes: lineBytes ?? 0,
      sentLines: entries,
      sentBytes: lineBytes ?? 0,
    });
    return true;
  }

  /** Bins a run's entries in range into their segments; returns those some window holds. */
  private bin(r: InRange, bytes: boolean): number {
    const { u, lengths } = r;
    const grid = this.grid;
    const covered = this.covered;
    let kept = 0;
    let s = 0;
    for (let i = 0; i < u.length; i++) {
      s = grid.segmentOf(u[i], s);
      if (covered[s] === 0) continue;
      this.add(s, 1, bytes && lengths !== null ? lengths[i] : 1);
      kept++;
    }
    return kept;
  }

  private add(s: number, count: number, sum: number): void {
    if (this.counts[s] === 0) this.touched[this.touchedCount++] = s;
    this.counts[s] += count;
    this.sums[s] += sum;
  }

  /** Moves the stream's counts into its series, by segment. */
  private flush(series: SegmentSeries): void {
    const touched = this.touched.subarray(0, this.touchedCount);
    touched.sort();
    for (const s of touched) {
      series.addMany(s, this.counts[s], this.sums[s]);
      this.counts[s] = 0;
      this.sums[s] = 0;
    }
    this.touchedCount = 0;
  }

  private drop(): null {
    for (let i = 0; i < this.touchedCount; i++) {
      const s = this.touched[i];
      this.counts[s] = 0;
      this.sums[s] = 0;
    }
    this.touchedCount = 0;
    return null;
  }
}

/** The run's entries with offsets in `[uLo, uHi)`. */
function inRange(
  run: RunSummary,
  times: RunTimes,
  origin: bigint,
  uLo: number,
  uHi: number,
): InRange {
  const all = times.offsets(origin);
  const offsets = times.lineOffsets;
  const n = times.count;
  let m = 0;
  for (let i = 0; i < n; i++) if (all[i] >= uLo && all[i] < uHi) m++;
  if (m === n && offsets === null) {
    return {
      run,
      u: all,
      lengths: null,
      bytes: run.lineBytes ?? 0,
      droppedLines: 0,
      droppedBytes: 0,
    };
  }
  const u = m === n ? all : new Float64Array(m);
  const lengths = offsets === null ? null : new Float64Array(m);
  let bytes = 0;
  for (let i = 0, k = 0; i < n; i++) {
    const x = all[i];
    if (x < uLo || x >= uHi) continue;
    u[k] = x;
    if (lengths !== null) {
      const length = offsets![i + 1] - offsets![i];
      lengths[k] = length;
      bytes += length;
    }
    k++;
  }
  return { run, u, lengths, bytes, droppedLines: 0, droppedBytes: 0 };
}

/**
 * The offsets in two or more of the runs (one run may repeat an offset), sorted, each once. Runs
 * are by `minTs`; an entry can only be in another run when it lies before the end of an earlier
 * one or at or after the start of the next one: only those are compared.
 */
function sharedOffsets(group: readonly InRange[], origin: bigint): Float64Array {
  const candidates: Float64Array[] = [];
  let earlierEnd = -Infinity;
  for (let k = 0; k < group.length; k++) {
    const { u, run } = group[k];
    const nextStart = k + 1 < group.length ? Number(group[k + 1].run.minTs - origin) : Infinity;
    let m = 0;
    for (let i = 0; i < u.length; i++) if (u[i] <= earlierEnd || u[i] >= nextStart) m++;
    const c = new Float64Array(m);
    for (let i = 0, j = 0; i < u.length; i++) {
      if (u[i] <= earlierEnd || u[i] >= nextStart) c[j++] = u[i];
    }
    // A cut block's entries are in time order already; a head block's may not be.
    if (!isSorted(c)) c.sort();
    candidates.push(c.subarray(0, distinct(c, m)));
    earlierEnd = Math.max(earlierEnd, Number(run.maxTs - origin));
  }
  const all = candidates.reduce(mergeSorted);
  // Each run gave an offset once: one seen twice is in two runs.
  let d = 0;
  for (let i = 1; i < all.length; i++) {
    if (all[i] === all[i - 1] && (d === 0 || all[d - 1] !== all[i])) all[d++] = all[i];
  }
  return all.subarray(0, d);
}

function isSorted(c: Float64Array): boolean {
  for (let i = 1; i < c.length; i++) if (c[i] < c[i - 1]) return false;
  return true;
}

/** The values of two sorted arrays, sorted (a value in both is there twice). */
function mergeSorted(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
  while (i < a.length) out[k++] = a[i++];
  while (j < b.length) out[k++] = b[j++];
  return out;
}

/** Moves the distinct values of the sorted `c[0 .. m)` to its front; returns how many. */
function distinct(c: Float64Array, m: number): number {
  let d = 0;
  for (let i = 0; i < m; i++) if (d === 0 || c[i] !== c[d - 1]) c[d++] = c[i];
  return d;
}

/**
 * Of the sorted `shared` offsets, those where two entries of the group's runs have lines of
 * one length (sorted): only there can one line be a copy of another. Reads the runs' line
 * lengths (not their lines) where the group did not read them yet.
 */
function sameLengths(
  group: readonly InRange[],
  shared: Float64Array,
  origin: bigint,
): Float64Array {
  // Per shared offset, the line lengths seen there (a number for one, then an array).
  const seen = new Map<number, number | number[]>();
  const out: number[] = [];
  const note = (x: number, length: number): void => {
    const had = seen.get(x);
    if (had === undefined) return void seen.set(x, length);
    if (had === -1) return; // a suspect already
    const lengths = typeof had === 'number' ? [had] : had;
    if (lengths.includes(length)) {
      seen.set(x, -1);
      out.push(x);
    } else {
      lengths.push(length);
      if (typeof had === 'number') seen.set(x, lengths);
    }
  };
  for (const r of group) {
    if (!holdsAny(r.u, shared)) continue;
    if (r.lengths !== null) {
      for (let i = 0; i < r.u.length; i++) if (includes(shared, r.u[i])) note(r.u[i], r.lengths[i]);
      continue;
    }
    const times = r.run.times(true);
    const u = times.offsets(origin);
    const offsets = times.lineOffsets!;
    for (let row = 0; row < times.count; row++) {
      if (includes(shared, u[row])) note(u[row], offsets[row + 1] - offsets[row]);
    }
  }
  return Float64Array.from(out).sort();
}

/** Whether the sorted `xs` holds `x`. */
function includes(xs: Float64Array, x: number): boolean {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo < xs.length && xs[lo] === x;
}

/** Whether some offset of `u` is in the sorted `xs`. */
function holdsAny(u: Float64Array, xs: Float64Array): boolean {
  for (let i = 0; i < u.length; i++) if (includes(xs, u[i])) return true;
  return false;
}
