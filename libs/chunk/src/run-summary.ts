/**
 * What a cursor can tell about its entries without returning them one by one: its runs (blocks,
 * head blocks) with the figures their meta records, so a count over time adds a block's totals
 * where the block lies wholly inside one window segment, and reads only the block's timestamps
 * (and line lengths) where it does not.
 */
import { endianness } from 'node:os';
import type { EntryRun } from './entry-run';

/** The timestamps (and line lengths) of a run's entries, with no line and no metadata value. */
export interface RunTimes {
  readonly count: number;
  /**
   * Each entry's timestamp minus `origin`, in nanoseconds as a double (rows in the order of
   * `lineOffsets`): exact while under 2^53 in magnitude, and as far as the true one beyond.
   */
  offsets(origin: bigint): Float64Array;
  /** Row r's line is `lineOffsets[r + 1] - lineOffsets[r]` bytes; null when not asked for. */
  readonly lineOffsets: Uint32Array | null;
  /** Each structured-metadata name some entry of the run carries, once. */
  readonly metadataNames: readonly string[];
}

/** One run as a cursor would walk it. Unknown figures are undefined: `times()` tells them. */
export interface RunSummary {
  readonly minTs: bigint;
  readonly maxTs: bigint;
  readonly entries: number | undefined;
  /** The sum of the run's line lengths. */
  readonly lineBytes: number | undefined;
  /** Each structured-metadata name some entry of the run carries, once. */
  readonly metadataNames: readonly string[] | undefined;
  /** Decodes the run's timestamps, and its line lengths when `lengths`. */
  times(lengths: boolean): RunTimes;
  /**
   * The run's entries as the cursor reads them (lines too): for a reader that must tell the
   * copies the cursor drops, which only lines tell.
   */
  load(): EntryRun;
  /**
   * Adds the lines and line bytes counted in the cursor's range to the cursor's statistics;
   * `sentLines` / `sentBytes` of them are those the cursor returns (the rest are copies it
   * drops; all of them when not given).
   */
  report(lines: number, bytes: number, sentLines?: number, sentBytes?: number): void;
}

/**
 * A cursor's entries as runs, by `minTs`: the entries of `runs` with `fromNs <= ts < throughNs`,
 * but that at a timestamp two or more runs hold, the cursor returns each distinct line once
 * (the copies, in whichever run, are dropped); at a timestamp one run alone holds, it returns
 * all of that run's entries. A reader that does not compare lines counts exactly when no
 * timestamp is in two runs (always so when the runs' time ranges do not overlap).
 */
export interface CursorSummary {
  readonly fromNs: bigint;
  readonly throughNs: bigint;
  readonly runs: readonly RunSummary[];
}

/** What a run source may know of its run before loading it (the block's meta). */
export interface RunMeta {
  readonly entries: number;
  readonly lineBytes: number | undefined;
  readonly metadataNames: readonly string[] | undefined;
  times(lengths: boolean): RunTimes;
}

/** A loaded run's times: its own arrays, and the metadata names its entries carry. */
export function runTimesOf(run: EntryRun): RunTimes {
  const { smIds, smOffsets } = run;
  let names: readonly string[] = [];
  // The ids in use (a head block's arrays may have room beyond them).
  const end = run.count === 0 ? 0 : smOffsets[run.count];
  if (end > smOffsets[0]) {
    const seen = new Set<number>();
    // Ids come in (name, value) pairs: every even one from the start is a name.
    for (let i = smOffsets[0]; i < end; i += 2) seen.add(smIds[i]);
    names = [...seen].map((id) => run.symbols[id]);
  }
  return {
    count: run.count,
    offsets: (origin) => offsetsOf(run.ts, run.count, origin),
    lineOffsets: run.lineOffsets,
    metadataNames: names,
  };
}

const LITTLE_ENDIAN = endianness() === 'LE';
const TWO_32 = 0x100000000;

/** `ts[i] - origin` as doubles (see `RunTimes.offsets`), from 32-bit halves: no BigInt each. */
export function offsetsOf(ts: BigInt64Array, count: number, origin: bigint): Float64Array {
  const out = new Float64Array(count);
  if (!LITTLE_ENDIAN) {
    for (let i = 0; i < count; i++) out[i] = Number(ts[i] - origin);
    return out;
  }
  const hi = new Int32Array(ts.buffer, ts.byteOffset, 2 * count);
  const lo = new Uint32Array(ts.buffer, ts.byteOffset, 2 * count);
  const originHi = Number(BigInt.asIntN(32, origin >> 32n));
  const originLo = Number(BigInt.asUintN(32, origin));
  // Exact while the high halves differ by under 2^21; beyond, rounded but as far.
  for (let i = 0; i < count; i++) {
    out[i] = (hi[2 * i + 1] - originHi) * TWO_32 + (lo[2 * i] - originLo);
  }
  return out;
}

/** The summary a loaded run gives (a head block's): every figure from its arrays. */
export function loadedRunMeta(run: EntryRun): RunMeta {
  // Made on first use: a cursor that walks the entries never asks.
  let times: RunTimes | null = null;
  const get = (): RunTimes => (times ??= runTimesOf(run));
  return {
    entries: run.count,
    lineBytes: run.lineOffsets[run.count] - run.lineOffsets[0],
    get metadataNames() {
      return get().metadataNames;
    },
    times: get,
  };
}

/** Summaries of several cursors merged as one (copies dropped), when each has one over one range. */
export function joinSummaries(parts: readonly (CursorSummary | null)[]): CursorSummary | null {
  if (parts.length === 0) return null;
  const first = parts[0];
  if (first === null) return null;
  const runs: RunSummary[] = [];
  for (const p of parts) {
    if (p === null || p.fromNs !== first.fromNs || p.throughNs !== first.throughNs) return null;
    runs.push(...p.runs);
  }
  return { fromNs: first.fromNs, throughNs: first.throughNs, runs: byMinTs(runs) };
}

export function byMinTs<T extends { readonly minTs: bigint }>(runs: T[]): T[] {
  return runs.sort((a, b) => (a.minTs < b.minTs ? -1 : a.minTs > b.minTs ? 1 : 0));
}

/**
 * A summary whose runs also call `counted` when they report (a wrapper's own statistics), with
 * the lines and bytes the cursor returns.
 */
export function reportingTo(
  summary: CursorSummary,
  counted: (lines: number, bytes: number) => void,
): CursorSummary {
  return {
    ...summary,
    runs: summary.runs.map((r) => ({
      minTs: r.minTs,
      maxTs: r.maxTs,
      entries: r.entries,
      lineBytes: r.lineBytes,
      metadataNames: r.metadataNames,
      times: (lengths: boolean) => r.times(lengths),
      load: () => r.load(),
      report: (lines: number, bytes: number, sentLines = lines, sentBytes = bytes) => {
        r.report(lines, bytes, sentLines, sentBytes);
        counted(sentLines, sentBytes);
      },
    })),
  };
}
