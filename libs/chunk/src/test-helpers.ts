import type { Labels } from '@logsvc/api';
import type { EntryCursor } from './cursor';

export interface PlainEntry {
  ts: bigint;
  line: string;
  sm: Labels;
}

/** Drains a cursor into plain values, for assertions in tests. */
export function drain(cursor: EntryCursor): PlainEntry[] {
  const out: PlainEntry[] = [];
  while (cursor.next()) {
    // Read in place first (before `line` makes its view), then as a view: the same bytes.
    const inPlace = cursor.lineSource.toString('utf8', cursor.lineStart, cursor.lineEnd);
    const line = cursor.line.toString('utf8');
    if (inPlace !== line) throw new Error(`line in place ${inPlace} is not the line ${line}`);
    out.push({ ts: cursor.timestampNs, line, sm: cursor.structuredMetadata });
  }
  return out;
}

/**
 * What iteration promises for these appends: each distinct (timestamp, line) once, where it was
 * first appended, ordered by timestamp with equal timestamps in append order (a stable sort).
 */
export function insertionOrder<T extends { ts: bigint; line: string }>(appends: readonly T[]): T[] {
  const seen = new Set<string>();
  const firsts = appends.filter((e) => {
    const key = `${e.ts}|${e.line}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return firsts.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0)); // sort is stable
}
