/**
 * Counts a stream's entries into window segments from its runs' meta (`CursorSummary`), for
 * range aggregations whose extractor needs no entry (`BulkExtraction`): a run in the query
 * range that lies inside one segment adds its entry count and line bytes there without being
 * read; any other run has its timestamps (and, for bytes, line lengths) decoded and binned
 * arithmetically, with no object per entry. Gives exactly what reading the entries gives.
 */
import { endianness } from 'node:os';
import type { CursorSummary, RunSummary, RunTimes } from '@logsvc/chunk';
import type { BulkExtraction } from '../../log/sample-extractor';
import type { SegmentGrid, SegmentSeries } from './segment-series';

const LITTLE_ENDIAN = endianness() === 'LE';
const TWO_32 = 0x100000000;
/** A query range this close to its origin (in ns): offsets from 32-bit halves are exact in it. */
const NEAR = 2 ** 51;
/** High halves this far from the origin's put an entry at least 2^52 ns away: outside. */
const FAR_HI = 2 ** 20;

export class BulkCounter {
  private readonly covered: Uint8Array;
  private readonly counts: Float64Array;
  private readonly sums: Float64Array;
  /** Segments given a count by the current stream, in the order first reached. */
  private readonly touched: Int32Array;
  private touchedCount = 0;
  private readonly originHi: number;
  private readonly originLo: number;

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
    this.originHi = Number(BigInt.asIntN(32, origin >> 32n));
    this.originLo = Number(BigInt.asUintN(32, origin));
  }

  /**
   * Counts the runs of `summary` for one stream into `series` (made when first needed), and
   * returns the entries counted; null, having counted nothing, when an entry's metadata may give
   * it other labels than `bulk.labels()` (the caller reads the entries then).
   */
  count(summary: CursorSummary, bulk: BulkExtraction, series: () => SegmentSeries): number | null {
    const lo = summary.fromNs > this.fromNs ? summary.fromNs : this.fromNs;
    const hi = summary.throughNs < this.throughNs ? summary.throughNs : this.throughNs;
    const bytes = bulk.kind === 'bytes';
    const reports: { run: RunSummary; lines: number; bytes: number }[] = [];
    let kept = 0;
    const runs = summary.runs.filter((r) => r.maxTs >= lo && r.minTs < hi);
    for (let i = 0; i < runs.length;) {
      // Runs whose time ranges overlap: counted one by one when no timestamp is in two of them
      // (else the cursor may drop copies, which only their lines tell).
      let end = i + 1;
      let maxTs = runs[i].maxTs;
      while (end < runs.length && runs[end].minTs <= maxTs) {
        if (runs[end].maxTs > maxTs) maxTs = runs[end].maxTs;
        end++;
      }
      if (end > i + 1) {
        const group = runs.slice(i, end);
        const times = group.map((r) =>
          r.times(bytes || !inside(r, lo, hi) || r.lineBytes === undefined),
        );
        if (sharesTimestamps(times)) return this.drop();
        for (let k = 0; k < group.length; k++) {
          const got = this.binRun(group[k], times[k], bulk, lo, hi);
          if (got === null) return this.drop();
          reports.push(got);
          kept += got.kept;
        }
        i = end;
        continue;
      }
      const run = runs[i++];
      const whole = inside(run, lo, hi);
      if (whole && run.entries !== undefined && run.metadataNames !== undefined) {
        const s = this.grid.segmentOf(Number(run.minTs - this.origin), 0);
        const lineBytes = run.lineBytes;
        if (s === this.grid.segmentOf(Number(run.maxTs - this.origin), s)) {
          if (this.covered[s] === 0) continue;
          if (!bytes || lineBytes !== undefined) {
            if (bulk.blockedBy(run.metadataNames)) return this.drop();
            this.add(s, run.entries, bytes ? lineBytes! : run.entries);
            reports.push({ run, lines: run.entries, bytes: lineBytes ?? 0 });
            kept += run.entries;
            continue;
          }
        }
      }
      // Line lengths for bytes, or for the statistics of a run partly in range.
      const got = this.binRun(
        run,
        run.times(bytes || !whole || run.lineBytes === undefined),
        bulk,
        lo,
        hi,
      );
      if (got === null) return this.drop();
      reports.push(got);
      kept += got.kept;
    }
    const target = this.touchedCount > 0 ? series() : null;
    if (target !== null) this.flush(target);
    for (const r of reports) r.run.report(r.lines, r.bytes);
    return kept;
  }

  /** Bins a run's entries (see `bin`); null when their metadata may give them other labels. */
  private binRun(
    run: RunSummary,
    times: RunTimes,
    bulk: BulkExtraction,
    lo: bigint,
    hi: bigint,
  ): { run: RunSummary; lines: number; bytes: number; kept: number } | null {
    if (bulk.blockedBy(times.metadataNames)) return null;
    const got = this.bin(times, lo, hi);
    // Without line lengths the run lies inside the range: its meta has the bytes.
    const bytes = times.lineOffsets === null ? (run.lineBytes ?? 0) : got.bytes;
    return { run, lines: got.lines, bytes, kept: got.kept };
  }

  /** Bins a run's entries in `[lo, hi)`: lines and bytes in range, entries in some window. */
  private bin(
    times: RunTimes,
    lo: bigint,
    hi: bigint,
  ): { lines: number; bytes: number; kept: number } {
    const { ts, lineOffsets } = times;
    const n = times.count;
    const grid = this.grid;
    const covered = this.covered;
    const uLo = Number(lo - this.origin);
    const uHi = Number(hi - this.origin);
    // Offsets from 32-bit halves while the range is near the origin; an entry whose high half
    // is far from the origin's is then outside it.
    const near = LITTLE_ENDIAN && Math.abs(uLo) < NEAR && Math.abs(uHi) < NEAR;
    const halves = near ? new Int32Array(ts.buffer, ts.byteOffset, 2 * n) : null;
    const lows = near ? new Uint32Array(ts.buffer, ts.byteOffset, 2 * n) : null;
    let lines = 0;
    let lineBytes = 0;
    let kept = 0;
    let s = 0;
    for (let i = 0; i < n; i++) {
      let u: number;
      if (halves !== null && lows !== null) {
        const dh = halves[2 * i + 1] - this.originHi;
        if (dh >= FAR_HI || dh <= -FAR_HI) continue;
        u = dh * TWO_32 + (lows[2 * i] - this.originLo);
      } else {
        u = Number(ts[i] - this.origin);
      }
      if (u < uLo || u >= uHi) continue;
      const length = lineOffsets === null ? 0 : lineOffsets[i + 1] - lineOffsets[i];
      lines++;
      lineBytes += length;
      s = grid.segmentOf(u, s);
      if (covered[s] === 0) continue;
      this.add(s, 1, lineOffsets === null ? 1 : length);
      kept++;
    }
    return { lines, bytes: lineBytes, kept };
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

function inside(run: RunSummary, lo: bigint, hi: bigint): boolean {
  return run.minTs >= lo && run.maxTs < hi;
}

/** Whether some timestamp is in two of the runs (one run may repeat it). */
function sharesTimestamps(times: readonly RunTimes[]): boolean {
  let total = 0;
  const distinct: BigInt64Array[] = times.map((t) => {
    const sorted = t.ts.slice(0, t.count).sort();
    let m = 0;
    for (let i = 0; i < sorted.length; i++) {
      if (m === 0 || sorted[i] !== sorted[m - 1]) sorted[m++] = sorted[i];
    }
    total += m;
    return sorted.subarray(0, m);
  });
  const all = new BigInt64Array(total);
  let at = 0;
  for (const d of distinct) {
    all.set(d, at);
    at += d.length;
  }
  all.sort();
  for (let i = 1; i < all.length; i++) if (all[i] === all[i - 1]) return true;
  return false;
}
