import type { Direction, ScanCounters } from './cursor';
import { type EntryRun, lowerBound, rowAt } from './entry-run';
import type { LineNeedles } from './line-needles';
import type { RunMeta } from './run-summary';

/**
 * One run being walked over its positions inside the query range, in direction order. `rank`
 * is the run's place in insertion order among the runs merged with it (older runs first).
 */
export class RunState {
  row = -1;
  /** While the run is part of a shared timestamp group: its first position there (lowest). */
  groupLo = 0;
  /** ... and where that position's flag sits in the group's keep mask. */
  groupBase = 0;
  /** A run not in stored order: 1 for each row whose line holds a needle, made on first seek. */
  private matches: Uint8Array | null = null;
  /** What the run's source knew of it before loading (its metadata names), if anything. */
  meta: RunMeta | undefined = undefined;

  constructor(
    readonly run: EntryRun,
    readonly rank: number,
    public pos: number,
    private readonly stop: number,
    private readonly step: 1 | -1,
    private readonly needles: LineNeedles | null,
  ) {
    this.seek();
  }

  static open(
    run: EntryRun,
    rank: number,
    fromNs: bigint,
    throughNs: bigint,
    direction: Direction,
    needles: LineNeedles | null,
    scanned: ScanCounters,
  ): RunState {
    const lo = lowerBound(run, fromNs);
    const hi = Math.max(lo, lowerBound(run, throughNs));
    scanned.lines += hi - lo;
    scanned.bytes += bytesBetween(run, lo, hi);
    // Each run keeps its own search state: a merge walks several at once.
    const own = needles === null ? null : needles.fresh();
    return direction === 'forward'
      ? new RunState(run, rank, lo, hi, 1, own)
      : new RunState(run, rank, hi - 1, lo - 1, -1, own);
  }

  get done(): boolean {
    return this.pos === this.stop;
  }

  /** The current entry's timestamp (only while not done). */
  get ts(): bigint {
    return this.run.ts[this.row];
  }

  advance(): void {
    this.pos += this.step;
    this.seek();
  }

  /**
   * How many positions, from the current one on in walking order, hold the current timestamp;
   * the lowest of them is `pos` walking forward and `pos - span + 1` walking backward.
   */
  tieSpan(): number {
    const { run } = this;
    const ts = run.ts[this.row];
    let span = 1;
    for (let p = this.pos + this.step; p !== this.stop && run.ts[rowAt(run, p)] === ts;) {
      span++;
      p += this.step;
    }
    return span;
  }

  get forward(): boolean {
    return this.step === 1;
  }

  /** Moves `pos` to the first position from here (in walking order) that the needles accept. */
  private seek(): void {
    if (this.needles !== null && this.pos !== this.stop) {
      if (this.run.order !== null) this.seekRowByRow(this.needles);
      else if (this.step === 1) this.seekForward(this.needles);
      else this.seekBackward(this.needles);
    }
    this.row = this.pos === this.stop ? -1 : rowAt(this.run, this.pos);
  }

  // A head block's rows are in arrival order, not time order. Their lines still lie back to
  // back in row order, so one forward search over all of them marks the rows that match;
  // walking the positions then reads a flag per row. (Searching row by row ran one search
  // per line, each to the next match wherever it was: with a rare needle, far past the line.)
  private seekRowByRow(needles: LineNeedles): void {
    const matches = (this.matches ??= matchingRows(this.run, needles));
    const { run } = this;
    while (this.pos !== this.stop) {
      if (matches[rowAt(run, this.pos)] === 1) return;
      this.pos += this.step;
    }
  }

  // Runs in stored order keep rows in position order, so their lines are contiguous and in order.
  private seekForward(needles: LineNeedles): void {
    const { lines, lineOffsets } = this.run;
    const end = lineOffsets[this.stop];
    let from = lineOffsets[this.pos];
    for (;;) {
      const at = needles.first(lines, from);
      if (at < 0 || at >= end) {
        this.pos = this.stop;
        return;
      }
      const row = rowContaining(lineOffsets, at, this.pos, this.stop);
      const rowEnd = lineOffsets[row + 1];
      // A match that runs past its line: another needle may still match inside the line.
      if (
        at + needles.length <= rowEnd ||
        (needles.count > 1 && needles.within(lines, at, rowEnd))
      ) {
        this.pos = row;
        return;
      }
      from = rowEnd;
    }
  }

  private seekBackward(needles: LineNeedles): void {
    const { lines, lineOffsets } = this.run;
    const start = lineOffsets[this.stop + 1];
    let end = lineOffsets[this.pos + 1];
    for (;;) {
      const at = needles.last(lines, start, end);
      if (at < 0) {
        this.pos = this.stop;
        return;
      }
      const row = rowContaining(lineOffsets, at, this.stop + 1, this.pos + 1);
      if (at + needles.length <= lineOffsets[row + 1]) {
        this.pos = row;
        return;
      }
      end = lineOffsets[row + 1]; // crossed a line end: retry inside `row`
    }
  }
}

/** 1 for every row of `run` whose line holds one of the needles, searched in row order. */
function matchingRows(run: EntryRun, needles: LineNeedles): Uint8Array {
  const { lines, lineOffsets, count } = run;
  const out = new Uint8Array(count);
  const end = lineOffsets[count];
  let from = lineOffsets[0];
  while (from < end) {
    const at = needles.first(lines, from);
    if (at < 0 || at >= end) break;
    const row = rowContaining(lineOffsets, at, 0, count);
    const rowEnd = lineOffsets[row + 1];
    // A match that runs past its line: another needle may still match inside the line.
    if (at + needles.length <= rowEnd || (needles.count > 1 && needles.within(lines, at, rowEnd))) {
      out[row] = 1;
    }
    from = rowEnd;
  }
  return out;
}

/** The row r in [lo, hi) with lineOffsets[r] <= at < lineOffsets[r + 1] (rows in line order). */
function rowContaining(lineOffsets: Uint32Array, at: number, lo: number, hi: number): number {
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (lineOffsets[mid] <= at) lo = mid;
    else hi = mid;
  }
  return lo;
}

function bytesBetween(run: EntryRun, lo: number, hi: number): number {
  if (run.order === null) return run.lineOffsets[hi] - run.lineOffsets[lo];
  let bytes = 0;
  for (let pos = lo; pos < hi; pos++) {
    const row = run.order[pos];
    bytes += run.lineOffsets[row + 1] - run.lineOffsets[row];
  }
  return bytes;
}
