import { EMPTY_LABELS, type LabelPair, type Labels } from '@logsvc/api';
import type { EntryRun } from './entry-run';
import { LineNeedles } from './line-needles';
import { ScratchLinesRun, ScratchPayloadRun } from './line-scratch';
import {
  byMinTs,
  type CursorSummary,
  type RunMeta,
  type RunSummary,
  runTimesOf,
} from './run-summary';
import { RunState } from './run-state';
import { TieGroup } from './tie-group';

/** A local binding: a CommonJS import is a getter call on every read, once per entry here. */
const NO_LABELS: Labels = EMPTY_LABELS;

export type Direction = 'forward' | 'backward';

/**
 * A cursor over one stream's entries sorted by time (entries that share a timestamp in
 * insertion order, or its reverse backward); no allocation per step beyond the line view.
 */
export interface EntryCursor {
  next(): boolean;
  readonly timestampNs: bigint;
  readonly line: Buffer;
  /**
   * The current line as a range of a buffer, `lineSource[lineStart, lineEnd)`, without making a
   * view: for readers that work on offsets (the JSON route, `| logfmt`, byte counts). A buffer
   * handed out here is not rewritten while the cursor may hand it out again (a reused one comes
   * back as a new Buffer object), so a reader may keep what it found in it for the next lines.
   */
  readonly lineSource: Buffer;
  readonly lineStart: number;
  readonly lineEnd: number;
  readonly structuredMetadata: Labels;
  /**
   * Every structured-metadata name (as stored) that the entries of the current entry's run (a
   * block) may carry, from the run's meta: the same array while the cursor stays in the run,
   * so a reader judges it once per block. Undefined when the cursor cannot tell without
   * reading the entry's metadata. A reader that needs none of these names can then leave
   * `structuredMetadata` unread.
   */
  readonly metadataNames?: readonly string[];
  /**
   * Cursors that fetch their entries as they are read: after `next()` returned false, a
   * promise that resolves when more can be read (call `next()` again), or null at the real
   * end. Such a cursor only runs dry before an entry at a new timestamp. Absent on cursors
   * that hold all their entries.
   */
  wait?(): Promise<void> | null;
  /**
   * Set on a cursor not started yet that knows where its entries begin: none comes before
   * this timestamp in the cursor's direction. A merge starts it only once it reaches there.
   */
  readonly startNs?: bigint;
  /**
   * The cursor's entries as runs with their meta (see `CursorSummary`), for a count that need
   * not walk them; null when it cannot tell (runs that overlap, a line prefilter, a filter
   * over entries). Only on a cursor not started yet; it changes nothing: a caller that got a
   * summary reads it instead of the entries, one that got null reads the entries.
   */
  summarize?(): CursorSummary | null;
}

/**
 * A cursor whose lines are Buffers of their own (entries held as objects): the line range is
 * the whole line.
 */
export abstract class WholeLineCursor implements EntryCursor {
  abstract next(): boolean;
  abstract readonly timestampNs: bigint;
  abstract readonly line: Buffer;
  abstract readonly structuredMetadata: Labels;

  get lineSource(): Buffer {
    return this.line;
  }

  get lineStart(): number {
    return 0;
  }

  get lineEnd(): number {
    return this.line.length;
  }
}

/** A chunk's cursor, which also tells how much of the chunk it scanned. */
export interface ChunkCursor extends EntryCursor {
  readonly scanned: ScanCounters;
}

/**
 * Something that can produce a run in (timestamp, insertion) order, known by its time range
 * before it is loaded.
 */
export interface RunSource {
  readonly minTs: bigint;
  readonly maxTs: bigint;
  load(): EntryRun;
  /**
   * For a cursor with `transientLines`: the run decoded into a scratch buffer (line-scratch.ts),
   * which the cursor gives back once it has left the run; absent when the source cannot.
   */
  readonly loadTransient?: (() => EntryRun) | undefined;
  /** What the run's meta tells before it is loaded. */
  readonly meta?: RunMeta;
}

const EMPTY_LINE = Buffer.alloc(0);
/** Past every int64 timestamp, in each walking direction: no bound on the lead. */
const NO_BOUND_FORWARD = 1n << 64n;
const NO_BOUND_BACKWARD = -(1n << 64n);
/** Keys of `onePair`: name id × 2^26 + value id, exact while both ids are below 2^26. */
const PAIR_KEY_FACTOR = 2 ** 26;
const MAX_CACHED_PAIRS = 4096;

/** Options of a cursor beyond its time range. */
export interface CursorOptions {
  /**
   * Only entries whose line contains these bytes are returned. A prefilter for a query's
   * `|= "literal"`: in a stored block the cursor searches the block's line bytes at once and
   * jumps to the rows that hold a match, instead of stepping through every row.
   */
  readonly lineContains?: Buffer;
  /**
   * Only entries whose line contains one of these (when `lineContains` is not given): a
   * prefilter for `|~ "a|b"` or `|= "a" or "b"`, searched the same way.
   */
  readonly lineContainsAny?: readonly Buffer[];
  /**
   * Structured metadata every returned entry has (`| trace_id="abc"` right after the
   * selector): blocks that provably hold no such entry are skipped, never decompressed. Only
   * blocks are skipped; entries are not filtered by it (the query's pipeline does that).
   */
  readonly metadataEquals?: readonly MetadataEquals[];
  /**
   * The reader keeps no line view (`line`, `lineSource`) nor metadata past its next call to
   * `next()`, as a LogQL query's engine: a columnar block's lines, and a zstd row block's whole
   * payload, are then decompressed into a buffer reused from block to block (line-scratch.ts)
   * instead of a fresh one.
   */
  readonly transientLines?: boolean;
}

/** A structured-metadata name (as LogQL offers it) and the value an entry must have for it. */
export interface MetadataEquals {
  readonly name: string;
  readonly value: string;
}

/**
 * The cursor prefilter of a query's line literals: a non-empty `lineContains`, or else a
 * non-empty `lineContainsAny`, or none.
 */
export function prefilterOptions(query: {
  readonly lineContains?: Buffer;
  readonly lineContainsAny?: readonly Buffer[];
  readonly transientLines?: boolean;
}): CursorOptions {
  const transient = query.transientLines === true ? { transientLines: true } : {};
  const needle = query.lineContains;
  if (needle !== undefined && needle.length > 0) return { lineContains: needle, ...transient };
  const any = query.lineContainsAny;
  return any !== undefined && any.length > 0 ? { lineContainsAny: any, ...transient } : transient;
}

/** Lines and line bytes that cursors passed over in the query range, matched or not. */
export interface ScanCounters {
  lines: number;
  bytes: number;
}

/**
 * Merges runs into one stream for [fromNs, throughNs): by timestamp, and entries that share a
 * timestamp in insertion order — `sources` are given oldest first (a chunk's blocks in cut
 * order, then its head), each run in insertion order — or exactly the reverse backward. An
 * entry equal in timestamp and line to one inserted before it is dropped. Runs whose time
 * ranges do not overlap are walked one after another and loaded only when reached; overlapping
 * runs go through a heap, each loaded and added to it only once the merge reaches the start of
 * its time range (so a log query that stops early loads the blocks it reached, also when the
 * blocks of a chunk overlap, as when a stream's entries come from several clients).
 */
export class MergeCursor implements ChunkCursor {
  private ts = 0n;
  /** The current entry's line, made on first read (a count over lines never reads them). */
  private lineView: Buffer | null = EMPTY_LINE;
  private run: EntryRun | null = null;
  private row = -1;
  private labels: Labels | null = null;
  /** The current run's meta (its metadata names), when its source had one. */
  private meta: RunMeta | undefined = undefined;
  /** The structured metadata built last, by symbol ids. */
  private lastSm: {
    readonly symbols: readonly string[];
    readonly ids: Uint32Array;
    readonly labels: Labels;
  } | null = null;
  /** `onePair`'s cache, for the symbol table it was built from. */
  private readonly pairs = new Map<number, Labels>();
  private pairSymbols: readonly string[] | null = null;
  /**
   * Sources still to open (with their ranks), the next to open last: sequential mode, in
   * output order; heap mode, by where their time range starts in walking order.
   */
  private readonly pending: { source: RunSource; rank: number }[];
  private current: RunState | null = null;
  /** Heap mode: open runs, best first; null in sequential mode. */
  private readonly heap: RunState[] | null;
  /** Heap mode: the runs at the timestamp being returned. */
  private readonly group = new TieGroup();
  /** Heap mode: the heap top, while it may walk on alone below `leadBound` (`nextMerged`). */
  private lead: RunState | null = null;
  private leadBound = 0n;
  private readonly forward: boolean;
  private readonly needles: LineNeedles | null;
  /**
   * `CursorOptions.transientLines`: columnar runs are read with scratch line buffers, zstd row
   * blocks with scratch payloads.
   */
  private readonly transient: boolean;
  /** Runs left since the last `next()`, whose scratch lines the next `next()` gives back. */
  private readonly spent: (ScratchLinesRun | ScratchPayloadRun)[] = [];
  /** Lines and bytes in the query range of every block loaded so far. */
  readonly scanned: ScanCounters = { lines: 0, bytes: 0 };

  constructor(
    sources: readonly RunSource[],
    private readonly fromNs: bigint,
    private readonly throughNs: bigint,
    private readonly direction: Direction,
    options: CursorOptions = {},
  ) {
    this.needles = LineNeedles.of(options.lineContains, options.lineContainsAny);
    this.transient = options.transientLines === true;
    this.forward = direction === 'forward';
    const inRange = sources
      .map((source, rank) => ({ source, rank }))
      .filter(({ source: s }) => s.maxTs >= fromNs && s.minTs < throughNs)
      .sort((a, b) =>
        a.source.minTs < b.source.minTs ? -1 : a.source.minTs > b.source.minTs ? 1 : 0,
      );
    let disjoint = true;
    for (let i = 1; i < inRange.length && disjoint; i++) {
      disjoint = inRange[i - 1].source.maxTs < inRange[i].source.minTs;
    }
    if (disjoint) {
      this.pending = this.forward ? inRange.reverse() : inRange;
      this.heap = null;
    } else {
      // Forward, a source's entries start at its minTs; backward, at its maxTs.
      this.pending = this.forward
        ? inRange.reverse()
        : inRange.sort((a, b) =>
            a.source.maxTs < b.source.maxTs ? -1 : a.source.maxTs > b.source.maxTs ? 1 : 0,
          );
      this.heap = [];
    }
  }

  /**
   * Heap mode: opens pending sources while the heap is empty or the next one's time range
   * starts at or before the heap top's timestamp in walking order (it may hold an entry
   * before or at it), and adds them to the heap.
   */
  private admit(heap: RunState[]): void {
    const pending = this.pending;
    while (pending.length > 0) {
      const { source, rank } = pending[pending.length - 1];
      if (heap.length > 0) {
        const ts = heap[0].ts;
        if (this.forward ? source.minTs > ts : source.maxTs < ts) return;
      }
      pending.pop();
      const state = this.open(source, rank);
      if (state.done) {
        this.retire(state);
        continue;
      }
      heap.push(state);
      this.siftUp(heap.length - 1);
    }
  }

  get timestampNs(): bigint {
    return this.ts;
  }

  get line(): Buffer {
    let view = this.lineView;
    if (view === null) {
      const run = this.run!;
      const row = this.row;
      view = run.lines.subarray(run.lineOffsets[row], run.lineOffsets[row + 1]);
      this.lineView = view;
    }
    return view;
  }

  get lineSource(): Buffer {
    return this.lineView ?? this.run!.lines;
  }

  get lineStart(): number {
    return this.lineView === null ? this.run!.lineOffsets[this.row] : 0;
  }

  get lineEnd(): number {
    const view = this.lineView;
    return view === null ? this.run!.lineOffsets[this.row + 1] : view.length;
  }

  get structuredMetadata(): Labels {
    if (this.labels === null) this.labels = this.buildLabels();
    return this.labels;
  }

  get metadataNames(): readonly string[] | undefined {
    return this.meta?.metadataNames;
  }

  next(): boolean {
    if (this.spent.length > 0) this.releaseSpent();
    return this.heap === null ? this.nextSequential() : this.nextMerged(this.heap);
  }

  summarize(): CursorSummary | null {
    // A prefilter skips lines; a started cursor has passed runs.
    if (this.needles !== null || this.run !== null || this.current !== null) return null;
    if (this.heap !== null && this.heap.length > 0) return null;
    const sources = byMinTs(this.pending.map((p) => p.source));
    const scanned = this.scanned;
    const report = (lines: number, bytes: number): void => {
      scanned.lines += lines;
      scanned.bytes += bytes;
    };
    const runs = sources.map((source): RunSummary => {
      const meta = source.meta;
      return {
        minTs: source.minTs,
        maxTs: source.maxTs,
        entries: meta?.entries,
        lineBytes: meta?.lineBytes,
        metadataNames: meta?.metadataNames,
        times: meta !== undefined ? (l) => meta.times(l) : () => runTimesOf(source.load()),
        load: () => source.load(),
        report,
      };
    });
    return { fromNs: this.fromNs, throughNs: this.throughNs, runs };
  }

  private nextSequential(): boolean {
    while (this.current === null || this.current.done) {
      if (this.current !== null) {
        this.retire(this.current);
        this.current = null;
      }
      const next = this.pending.pop();
      if (next === undefined) return this.finish();
      this.current = this.open(next.source, next.rank);
    }
    const state = this.current;
    this.emit(state.run, state.row, state.meta);
    state.advance();
    return true;
  }

  private nextMerged(heap: RunState[]): boolean {
    const lead = this.lead;
    if (lead !== null) {
      // The heap top walks on without the heap while its entries come strictly before every
      // other run's next entry and the next pending run's start: no other run holds such a
      // timestamp (no copy to look for), and no run waits to be admitted before it.
      this.lead = null;
      const { run, row } = lead;
      const ts = run.ts[row];
      if (
        (this.forward ? ts < this.leadBound : ts > this.leadBound) &&
        (ts !== this.group.ts || !this.group.shared)
      ) {
        lead.advance();
        if (!lead.done) this.lead = lead;
        else {
          this.retire(lead);
          const last = heap.pop()!;
          if (heap.length > 0) {
            heap[0] = last;
            this.siftDown(0);
          }
        }
        this.emit(run, row, lead.meta);
        return true;
      }
      // Its entry may now come after another run's: back in heap order first.
      this.siftDown(0);
    }
    for (;;) {
      // Every source that may hold an entry before or at the top's must be in the heap first.
      this.admit(heap);
      if (heap.length === 0) break;
      const state = heap[0];
      const { run, row, pos } = state;
      const ts = run.ts[row];
      if (ts !== this.group.ts) this.group.open(heap, ts);
      const keep = !this.group.shared || this.group.keeps(state, pos);
      state.advance();
      if (state.done) {
        this.retire(state);
        const last = heap.pop()!;
        if (heap.length > 0) heap[0] = last;
      }
      if (heap.length > 0) this.siftDown(0);
      if (keep) {
        this.emit(run, row, state.meta);
        this.takeLead(heap);
        return true;
      }
    }
    return this.finish();
  }

  /**
   * Makes the heap top the lead (see `nextMerged`), bounded by the next entries of its children
   * (the earliest of the other runs') and by where the next pending run starts.
   */
  private takeLead(heap: RunState[]): void {
    if (heap.length === 0) return;
    const forward = this.forward;
    let bound = forward ? NO_BOUND_FORWARD : NO_BOUND_BACKWARD;
    for (let child = 1; child <= 2 && child < heap.length; child++) {
      const ts = heap[child].ts;
      if (forward ? ts < bound : ts > bound) bound = ts;
    }
    const pending = this.pending;
    if (pending.length > 0) {
      const { source } = pending[pending.length - 1];
      const start = forward ? source.minTs : source.maxTs;
      if (forward ? start < bound : start > bound) bound = start;
    }
    this.lead = heap[0];
    this.leadBound = bound;
  }

  private open(source: RunSource, rank: number): RunState {
    const loaded =
      this.transient && source.loadTransient !== undefined ? source.loadTransient() : source.load();
    const state = RunState.open(
      this.transient && loaded.linesInto !== undefined ? new ScratchLinesRun(loaded) : loaded,
      rank,
      this.fromNs,
      this.throughNs,
      this.direction,
      this.needles,
      this.scanned,
    );
    state.meta = source.meta;
    return state;
  }

  private emit(run: EntryRun, row: number, meta: RunMeta | undefined): void {
    this.run = run;
    this.row = row;
    this.ts = run.ts[row];
    this.lineView = null;
    this.labels = null;
    this.meta = meta;
  }

  /** A run the walk has left: its scratch buffer goes back once the entry shown from it is gone. */
  private retire(state: RunState): void {
    const { run } = state;
    if (run instanceof ScratchLinesRun || run instanceof ScratchPayloadRun) this.spent.push(run);
  }

  private releaseSpent(): void {
    for (const run of this.spent) run.release();
    this.spent.length = 0;
  }

  private finish(): false {
    this.releaseSpent();
    this.lineView = EMPTY_LINE;
    this.labels = NO_LABELS;
    this.meta = undefined;
    return false;
  }

  private buildLabels(): Labels {
    const run = this.run;
    if (run === null) return NO_LABELS;
    const name = run.onePairName;
    if (name !== undefined) {
      const value = run.onePairValue!(this.row);
      if (value < 0) return NO_LABELS;
      if (name < PAIR_KEY_FACTOR && value < PAIR_KEY_FACTOR) return this.onePair(run, name, value);
      return [{ name: run.symbols[name], value: run.symbols[value] }];
    }
    const start = run.smOffsets[this.row];
    const end = run.smOffsets[this.row + 1];
    if (start === end) return NO_LABELS;
    if (
      end - start === 2 &&
      run.smIds[start] < PAIR_KEY_FACTOR &&
      run.smIds[start + 1] < PAIR_KEY_FACTOR
    ) {
      return this.onePair(run, run.smIds[start], run.smIds[start + 1]);
    }
    // Entries mostly carry the same pairs as the one before: give the same (immutable) array.
    const last = this.lastSm;
    if (last !== null && last.symbols === run.symbols && last.ids.length === end - start) {
      let same = true;
      for (let k = 0; k < last.ids.length && same; k++) same = last.ids[k] === run.smIds[start + k];
      if (same) return last.labels;
    }
    const out: LabelPair[] = [];
    for (let i = start; i < end; i += 2) {
      out.push({ name: run.symbols[run.smIds[i]], value: run.symbols[run.smIds[i + 1]] });
    }
    this.lastSm = { symbols: run.symbols, ids: run.smIds.slice(start, end), labels: out };
    return out;
  }

  /**
   * Metadata of one pair (as `detected_level` alone): one array per pair and symbol table, so
   * entries whose levels alternate build nothing.
   */
  private onePair(run: EntryRun, nameId: number, valueId: number): Labels {
    if (this.pairSymbols !== run.symbols) {
      this.pairSymbols = run.symbols;
      this.pairs.clear();
    }
    const key = nameId * PAIR_KEY_FACTOR + valueId;
    let labels = this.pairs.get(key);
    if (labels === undefined) {
      labels = [{ name: run.symbols[nameId], value: run.symbols[valueId] }];
      if (this.pairs.size >= MAX_CACHED_PAIRS) this.pairs.clear();
      this.pairs.set(key, labels);
    }
    return labels;
  }

  /** Heap order: timestamp, then rank (insertion order), both reversed walking backward. */
  private before(a: RunState, b: RunState): boolean {
    const ta = a.ts;
    const tb = b.ts;
    if (ta !== tb) return ta < tb === this.forward;
    return a.rank < b.rank === this.forward;
  }

  private siftUp(i: number): void {
    const heap = this.heap!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(heap[i], heap[parent])) return;
      const tmp = heap[i];
      heap[i] = heap[parent];
      heap[parent] = tmp;
      i = parent;
    }
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
