/**
 * A set of entries held column-wise: the shape shared by a head block snapshot and a
 * decompressed block, and what cursors iterate. Its order is by timestamp, entries with equal
 * timestamps in insertion order (blocks written before that rule have them by line bytes, which
 * readers take as their insertion order). Row `r`'s line is
 * `lines[lineOffsets[r] .. lineOffsets[r + 1])`; its structured metadata is the
 * (name id, value id) pairs in `smIds[smOffsets[r] .. smOffsets[r + 1])`.
 */
export interface EntryRun {
  readonly count: number;
  readonly ts: BigInt64Array;
  readonly lineOffsets: Uint32Array;
  readonly lines: Buffer;
  readonly smOffsets: Uint32Array;
  readonly smIds: Uint32Array;
  readonly symbols: readonly string[];
  /** Position in order -> row; null when rows are already in order. */
  readonly order: Uint32Array | null;
  /**
   * Set on runs whose every entry holds at most one metadata pair, all of this name (its
   * symbol id): `onePairValue(row)` then gives the value id of the row's pair, or -1 when it
   * has none, without the run building `smOffsets` / `smIds` for all its rows.
   */
  readonly onePairName?: number;
  onePairValue?(row: number): number;
  /**
   * Columnar blocks whose lines are still compressed: decompresses them into `into` (exactly
   * `lineOffsets[count]` bytes) without keeping them, and returns true; false (nothing
   * written) when the run holds its lines already or their codec cannot write in place.
   */
  linesInto?(into: Buffer): boolean;
  /**
   * Runs that decode their metadata only when read (columnar blocks): the bytes of
   * `smOffsets` and `smIds`, or a bound on them when not decoded yet, without decoding them.
   */
  metadataBytes?(): number;
}

export function rowAt(run: EntryRun, pos: number): number {
  return run.order === null ? pos : run.order[pos];
}

/** First position (in order) whose timestamp is >= ts. */
export function lowerBound(run: EntryRun, ts: bigint): number {
  let lo = 0;
  let hi = run.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (run.ts[rowAt(run, mid)] < ts) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
