// Acknowledged pushes against what the server reads back: the durability checks of e2e tests.
import { expect } from 'vitest';
import { nowNs, queryRange } from './loki-api';

/** An entry's identity as a reader sees it: its stream's `by` label, timestamp and line. */
export const entryKey = (by: string, ts: string, line: string): string =>
  `${by}\u0000${ts}\u0000${line}`;

export interface ReadKeysOptions {
  readonly query: string;
  /** The stream label that tells the writers apart (`pod`, `client`). */
  readonly by: string;
  /** From this nanosecond to a minute from now, oldest first. */
  readonly fromNs: bigint;
  readonly limit: number;
}

/** The entryKey of every entry a log query reads. */
export async function readKeys(base: string, o: ReadKeysOptions): Promise<string[]> {
  const streams = await queryRange(base, {
    query: o.query,
    start: o.fromNs,
    end: nowNs() + 60_000_000_000n,
    limit: o.limit,
    direction: 'forward',
    categorizeLabels: true,
  });
  return streams.flatMap((s) => s.entries.map((e) => entryKey(s.stream[o.by], e.ts, e.line)));
}

/** Every acknowledged entry (there are some) read once: none missing, none twice. */
export function expectExactlyOnce(read: readonly string[], acked: ReadonlySet<string>): void {
  const counts = new Map<string, number>();
  for (const k of read) counts.set(k, (counts.get(k) ?? 0) + 1);
  const missing = [...acked].filter((k) => !counts.has(k)).length;
  const duplicated = [...counts.values()].filter((n) => n > 1).length;
  expect({ acked: acked.size > 0, missing, duplicated }).toEqual({
    acked: true,
    missing: 0,
    duplicated: 0,
  });
}
