import { EMPTY_LABELS, type LabelPair, type Labels } from '@logsvc/api';
import { compareEntries, type EntryRun, lowerBound, rowAt } from './entry-run';

export type Direction = 'forward' | 'backward';

/** A cursor over entries sorted by time; no allocation per step beyond the line view. */
export interface EntryCursor {
  next(): boolean;
  readonly timestampNs: bigint;
  readonly line: Buffer;
  readonly structuredMetadata: Labels;
}

/** A chunk's cursor, which also tells how much of the chunk it scanned. */
export interface ChunkCursor extends EntryCursor {
  readonly scanned: ScanCounters;
}

/** Something that can produce a sorted run, known by its time range before it is loaded. */
export interface RunSource {
  readonly minTs: bigint;
  readonly maxTs: bigint;
  load(): EntryRun;
}

const EMPTY_LINE = Buffer.alloc(0);

/** Options of a cursor beyond its time range. */
export interface CursorOptions {
  /**
   * Only entries whose line contains these bytes are returned. A prefilter for a query's
   * `|= "literal"`: in a sorted block the cursor searches the block's line bytes at once and
   * jumps to the rows that hold a match, instead of stepping through every row.
   */
  readonly lineContains?: Buffer;
}

/** Lines and line bytes that cursors passed over in the query range, matched or not. */
export interface ScanCounters {
  lines: number;
  bytes: number;
}

/** One run being walked over its positions inside the query range. */
class RunState {
  row = -1;
  constructor(
    readonly run: EntryRun,
    public pos: number,
    private readonly stop: number,
    private readonly step: 1 | -1,
    private readonly needle: Buffer | null,
  ) {
    this.seek();
  }

  static open(
    run: EntryRun,
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
      ? new RunState(run, lo, hi, 1, needle)
      : new RunState(run, hi - 1, lo - 1, -1, needle);
  }

  get done(): boolean {
    return this.pos === this.stop;
  }

  advance(): void {
    this.pos += this.step;
    this.seek();
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

  // Sorted runs keep rows in position order, so their lines are contiguous and in order.
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

/** The row r in [lo, hi) with lineOffsets[r] <= at < lineOffsets[r + 1] (sorted runs). */
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

/**
 * Merges sorted runs into one sorted stream for [fromNs, throughNs), dropping entries equal in
 * timestamp and line to the one just returned. Runs whose time ranges do not overlap are
 * walked one after another and loaded only when reached; overlapping runs go through a heap.
 */
export class MergeCursor implements ChunkCursor {
  private ts = 0n;
  private lineView: Buffer = EMPTY_LINE;
  private run: EntryRun | null = null;
  private row = -1;
  private labels: Labels | null = null;
  /** Sequential mode: sources still to open, in output order. */
  private readonly pending: RunSource[];
  private current: RunState | null = null;
  /** Heap mode: open runs, best first; null in sequential mode. */
  private readonly heap: RunState[] | null;
  private readonly sign: 1 | -1;
  private readonly needle: Buffer | null;
  /** Lines and bytes in the query range of every block loaded so far. */
  readonly scanned: ScanCounters = { lines: 0, bytes: 0 };

  constructor(
    sources: readonly RunSource[],
    private readonly fromNs: bigint,
    private readonly throughNs: bigint,
    private readonly direction: Direction,
    options: CursorOptions = {},
  ) {
    const needle = options.lineContains;
    this.needle = needle !== undefined && needle.length > 0 ? needle : null;
    this.sign = direction === 'forward' ? 1 : -1;
    const inRange = sources
      .filter((s) => s.maxTs >= fromNs && s.minTs < throughNs)
      .sort((a, b) => (a.minTs < b.minTs ? -1 : a.minTs > b.minTs ? 1 : 0));
    let disjoint = true;
    for (let i = 1; i < inRange.length && disjoint; i++) {
      disjoint = inRange[i - 1].maxTs < inRange[i].minTs;
    }
    if (disjoint) {
      this.pending = direction === 'forward' ? inRange.reverse() : inRange;
      this.heap = null;
    } else {
      this.pending = [];
      this.heap = [];
      for (const s of inRange) {
        const state = RunState.open(
          s.load(),
          fromNs,
          throughNs,
          direction,
          this.needle,
          this.scanned,
        );
        if (!state.done) this.heap.push(state);
      }
      for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
    }
  }

  get timestampNs(): bigint {
    return this.ts;
  }

  get line(): Buffer {
    return this.lineView;
  }

  get structuredMetadata(): Labels {
    if (this.labels === null) this.labels = this.buildLabels();
    return this.labels;
  }

  next(): boolean {
    for (;;) {
      const state = this.heap === null ? this.nextSequential() : this.heap[0];
      if (state === undefined || state === null) return this.finish();
      const run = state.run;
      const row = state.row;
      state.advance();
      if (this.heap !== null) {
        if (state.done) {
          const last = this.heap.pop()!;
          if (this.heap.length > 0) this.heap[0] = last;
        }
        if (this.heap.length > 0) this.siftDown(0);
      }
      if (this.run !== null && compareEntries(this.run, this.row, run, row) === 0) continue;
      this.run = run;
      this.row = row;
      this.ts = run.ts[row];
      this.lineView = run.lines.subarray(run.lineOffsets[row], run.lineOffsets[row + 1]);
      this.labels = null;
      return true;
    }
  }

  private nextSequential(): RunState | null {
    while (this.current === null || this.current.done) {
      const source = this.pending.pop();
      if (source === undefined) return null;
      this.current = RunState.open(
        source.load(),
        this.fromNs,
        this.throughNs,
        this.direction,
        this.needle,
        this.scanned,
      );
    }
    return this.current;
  }

  private finish(): false {
    this.lineView = EMPTY_LINE;
    this.labels = EMPTY_LABELS;
    return false;
  }

  private buildLabels(): Labels {
    const run = this.run;
    if (run === null) return EMPTY_LABELS;
    const start = run.smOffsets[this.row];
    const end = run.smOffsets[this.row + 1];
    if (start === end) return EMPTY_LABELS;
    const out: LabelPair[] = [];
    for (let i = start; i < end; i += 2) {
      out.push({ name: run.symbols[run.smIds[i]], value: run.symbols[run.smIds[i + 1]] });
    }
    return out;
  }

  private before(a: RunState, b: RunState): boolean {
    return this.sign * compareEntries(a.run, a.row, b.run, b.row) < 0;
  }

  private siftDown(i: number): void {
    const heap = this.heap!;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < heap.length && this.before(heap[l], heap[best])) best = l;
      if (r < heap.length && this.before(heap[r], heap[best])) best = r;
      if (best === i) return;
      const tmp = heap[i];
      heap[i] = heap[best];
      heap[best] = tmp;
      i = best;
    }
  }
}
