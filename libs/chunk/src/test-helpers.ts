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
    out.push({
      ts: cursor.timestampNs,
      line: cursor.line.toString('utf8'),
      sm: cursor.structuredMetadata,
    });
  }
  return out;
}

/** The order the chunk promises: timestamp, then line bytes. */
export function compareByTsThenLine(
  a: { ts: bigint; line: string },
  b: { ts: bigint; line: string },
): number {
  if (a.ts !== b.ts) return a.ts < b.ts ? -1 : 1;
  return Buffer.compare(Buffer.from(a.line), Buffer.from(b.line));
}
