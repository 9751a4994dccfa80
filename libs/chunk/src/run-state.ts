import type { Direction, ScanCounters } from './cursor';
import { type EntryRun, lowerBound, rowAt } from './entry-run';

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

  constructor(
    readonly run: EntryRun,
    readonly rank: number,
    public pos: number,
    private readonly stop: number,
    private readonly step: 1 | -1,
    private readonly needle: Buffer | null,
  ) {
    this.seek();
  }

  static open(
    run: EntryRun,
    rank: number,
    fromNs: bigint,
    throughNs: bigint,
    direction: Direction,
    needle: Buffer | null,
    scanned: ScanCounters,
  ): RunState {
    const lo = lowerBound(run, fromNs);
    const hi = Math.max(lo, lowerBound(run, throughNs));
    scanned.lines += hi - lo;
    scanned.bytes += bytesBetween(run, lo, hi);
    return direction === 'forward'
      ? new RunState(run, rank, lo, hi, 1, needle)
      : new RunState(run, rank, hi - 1, lo - 1, -1, needle);
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

  /** Moves `pos` to the first position from here (in walking order) that the needle accepts. */
  private seek(): void {
    if (this.needle !== null && this.pos !== this.stop) {
      if (this.run.order !== null) this.seekRowByRow(this.needle);
      else if (this.step === 1) this.seekForward(this.needle);
      else this.seekBackward(this.needle);
    }
    this.row = this.pos === this.stop ? -1 : rowAt(this.run, this.pos);
  }

  private seekRowByRow(needle: Buffer): void {
    const { lines, lineOffsets } = this.run;
    while (this.pos !== this.stop) {
      const row = rowAt(this.run, this.pos);
      const at = lines.indexOf(needle, lineOffsets[row]);
      if (at >= 0 && at + needle.length <= lineOffsets[row + 1]) return;
      this.pos += this.step;
    }
  }

  // Runs in stored order keep rows in position order, so their lines are contiguous and in order.
  private seekForward(needle: Buffer): void {
    const { lines, lineOffsets } = this.run;
    const end = lineOffsets[this.stop];
    let from = lineOffsets[this.pos];
    for (;;) {
      const at = lines.indexOf(needle, from);
      if (at < 0 || at + needle.length > end) {
        this.pos = this.stop;
        return;
      }
      const row = rowContaining(lineOffsets, at, this.pos, this.stop);
      if (at + needle.length <= lineOffsets[row + 1]) {
        this.pos = row;
        return;
      }
      from = lineOffsets[row + 1]; // the match crossed into the next line: search from there
    }
  }

  private seekBackward(needle: Buffer): void {
    const { lines, lineOffsets } = this.run;
    const start = lineOffsets[this.stop + 1];
    let last = lineOffsets[this.pos + 1] - needle.length;
    for (;;) {
      const at = last < start ? -1 : lines.lastIndexOf(needle, last);
      if (at < start) {
        this.pos = this.stop;
        return;
      }
      const row = rowContaining(lineOffsets, at, this.stop + 1, this.pos + 1);
      if (at + needle.length <= lineOffsets[row + 1]) {
        this.pos = row;
        return;
      }
      last = lineOffsets[row + 1] - needle.length; // crossed a line end: retry inside `row`
      if (last >= at) last = at - 1;
    }
  }
}

/** The row r in [lo, hi) with lineOffsets[r] <= at < lineOffsets[r + 1] (runs in stored order). */
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
