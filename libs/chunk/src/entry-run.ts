/**
 * A set of entries held column-wise: the shape shared by a head block snapshot and a
 * decompressed block, and what cursors iterate. Row `r`'s line is
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
  /** Sorted position -> row; null when rows are already sorted by (timestamp, line bytes). */
  readonly order: Uint32Array | null;
}

export function rowAt(run: EntryRun, pos: number): number {
  return run.order === null ? pos : run.order[pos];
}

/** Compares two entries by timestamp, then line bytes. */
export function compareEntries(a: EntryRun, ra: number, b: EntryRun, rb: number): number {
  const ta = a.ts[ra];
  const tb = b.ts[rb];
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.lines.compare(
    b.lines,
    b.lineOffsets[rb],
    b.lineOffsets[rb + 1],
    a.lineOffsets[ra],
    a.lineOffsets[ra + 1],
  );
}

/** First sorted position whose timestamp is >= ts. */
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
