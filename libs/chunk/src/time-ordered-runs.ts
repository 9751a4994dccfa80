import { endianness } from 'node:os';
import { type EntryRun, rowAt } from './entry-run';
import { LineSet } from './line-set';
import { offsetsOf } from './run-summary';

/**
 * A chunk's blocks, as decoded runs in cut order, rearranged so that no two overlap in time:
 * the entries a forward iterator over the blocks returns (by timestamp, equal timestamps in
 * cut order, a line repeated at one timestamp kept once, first sighting first), cut again into
 * runs of about `targetBytes` (line plus metadata bytes, as a block's size counts them), never
 * between two entries of one timestamp. Blocks cut from a head filled out of order overlap
 * their neighbours; readers then merge them entry by entry and count across them with copies
 * in mind, which blocks in time order spare them. Runs already in order come back as they are.
 */
export function timeOrderedRuns(
  runs: readonly EntryRun[],
  targetBytes: number,
  symbolByteLengths: readonly number[],
): readonly EntryRun[] {
  if (inOrder(runs)) return runs;
  const all = concatRuns(runs);
  const order = keptInTimeOrder(all, runs);
  const out: EntryRun[] = [];
  let start = 0;
  let bytes = 0;
  for (let pos = 0; pos < order.length; pos++) {
    const row = order[pos];
    bytes += all.lineOffsets[row + 1] - all.lineOffsets[row];
    for (let i = all.smOffsets[row]; i < all.smOffsets[row + 1]; i++) {
      bytes += symbolByteLengths[all.smIds[i]];
    }
    const next = pos + 1 < order.length ? order[pos + 1] : -1;
    if (next === -1 || (bytes >= targetBytes && all.ts[next] !== all.ts[row])) {
      out.push(orderedView(all, order.subarray(start, pos + 1)));
      start = pos + 1;
      bytes = 0;
    }
  }
  return out;
}

/** Each run starts after the one before ends (an equal timestamp may hold a copy). */
function inOrder(runs: readonly EntryRun[]): boolean {
  let prev: EntryRun | null = null;
  for (const run of runs) {
    if (run.count === 0) continue;
    if (prev !== null && run.ts[rowAt(run, 0)] <= prev.ts[rowAt(prev, prev.count - 1)]) {
      return false;
    }
    prev = run;
  }
  return true;
}

/** A run's columns, its rows in row order. */
type Columns = Pick<
  EntryRun,
  'count' | 'ts' | 'lineOffsets' | 'lines' | 'smOffsets' | 'smIds' | 'symbols'
>;

/** The runs' rows (each run in its order) back to back, in one set of columns. */
function concatRuns(runs: readonly EntryRun[]): Columns {
  let count = 0;
  let lineBytes = 0;
  let ids = 0;
  for (const r of runs) {
    count += r.count;
    lineBytes += r.lineOffsets[r.count];
    ids += r.smOffsets[r.count];
  }
  const ts = new BigInt64Array(count);
  const lineOffsets = new Uint32Array(count + 1);
  const lines = Buffer.allocUnsafe(lineBytes);
  const smOffsets = new Uint32Array(count + 1);
  const smIds = new Uint32Array(ids);
  let k = 0;
  for (const r of runs) {
    for (let pos = 0; pos < r.count; pos++) {
      const row = rowAt(r, pos);
      ts[k] = r.ts[row];
      const lineStart = lineOffsets[k];
      const lineEnd = r.lineOffsets[row + 1];
      lineOffsets[k + 1] = lineStart + r.lines.copy(lines, lineStart, r.lineOffsets[row], lineEnd);
      const idStart = smOffsets[k];
      smIds.set(r.smIds.subarray(r.smOffsets[row], r.smOffsets[row + 1]), idStart);
      smOffsets[k + 1] = idStart + r.smOffsets[row + 1] - r.smOffsets[row];
      k++;
    }
  }
  return { count, ts, lineOffsets, lines, smOffsets, smIds, symbols: runs[0]?.symbols ?? [] };
}

/**
 * The rows by timestamp, equal timestamps by row (cut order), without rows whose line an
 * earlier row of their timestamp holds.
 */
function keptInTimeOrder(all: Columns, runs: readonly EntryRun[]): Uint32Array {
  const ts = timeKeys(all.ts);
  const order = mergedOrder(ts, runs);
  const seen = new LineSet();
  let seenAt = NaN;
  let kept = 0;
  for (let pos = 0; pos < order.length; pos++) {
    const row = order[pos];
    if (ts[row] !== seenAt) {
      seen.clear();
      seenAt = ts[row];
    }
    if (seen.add(all.lines, all.lineOffsets[row], all.lineOffsets[row + 1])) order[kept++] = row;
  }
  return order.subarray(0, kept);
}

/**
 * The rows of the runs laid back to back (each in time order) by `keys`, equal keys by row:
 * adjacent runs merged pairwise, the left first on ties, until one is left.
 */
function mergedOrder(keys: Float64Array, runs: readonly EntryRun[]): Uint32Array {
  let src = new Uint32Array(keys.length);
  for (let i = 0; i < src.length; i++) src[i] = i;
  let dst = new Uint32Array(keys.length);
  let bounds = [0];
  for (const r of runs) bounds.push(bounds[bounds.length - 1] + r.count);
  while (bounds.length > 2) {
    const next = [0];
    for (let b = 0; b + 1 < bounds.length; b += 2) {
      const lo = bounds[b];
      const mid = bounds[b + 1];
      const hi = b + 2 < bounds.length ? bounds[b + 2] : mid;
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) dst[k++] = keys[src[j]] < keys[src[i]] ? src[j++] : src[i++];
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
      next.push(hi);
    }
    [src, dst] = [dst, src];
    bounds = next;
  }
  return src;
}

/**
 * Numbers that order as the timestamps do: offsets from the first when the span fits a double
 * exactly (any real chunk), else the ranks of the distinct timestamps. (No BigInt is carried
 * from one loop iteration to the next: Node 20's optimizing compiler aborts the process on
 * some such loops.)
 */
function timeKeys(ts: BigInt64Array): Float64Array {
  if (ts.length === 0) return new Float64Array(0);
  if (highHalvesSpan(ts) < 2 ** 20) return offsetsOf(ts, ts.length, ts[0]);
  const distinct = [...new Set(ts)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const rank = new Map(distinct.map((t, i) => [t, i]));
  return Float64Array.from(ts, (t) => rank.get(t)!);
}

const HIGH_HALF = endianness() === 'LE' ? 1 : 0;

/** How far apart the timestamps' signed high 32-bit halves lie. */
function highHalvesSpan(ts: BigInt64Array): number {
  const halves = new Int32Array(ts.buffer, ts.byteOffset, 2 * ts.length);
  let min = halves[HIGH_HALF];
  let max = min;
  for (let i = HIGH_HALF; i < halves.length; i += 2) {
    if (halves[i] < min) min = halves[i];
    if (halves[i] > max) max = halves[i];
  }
  return max - min;
}

/** The rows `order` picks of `all`, in that order. */
function orderedView(all: Columns, order: Uint32Array): EntryRun {
  return { ...all, count: order.length, order };
}
