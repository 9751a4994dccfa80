import type { Matcher } from '@logsvc/api';
import type { PatternSample } from './samples';

/** What `GET /patterns` asks each pattern ingester, in milliseconds (Loki's model.Time). */
export interface PatternQuery {
  readonly matchers: readonly Matcher[];
  readonly fromMs: number;
  /** Exclusive. */
  readonly throughMs: number;
  readonly stepMs: number;
}

/** One pattern and its line counts per step, in time order. */
export interface PatternSeries {
  readonly pattern: string;
  readonly samples: PatternSample[];
}

const NS_PER_MS = 1_000_000n;

/** Loki's RoundToMilliseconds: the start rounded down, the end up. */
export function roundToMilliseconds(startNs: bigint, endNs: bigint): [number, number] {
  const through = endNs / NS_PER_MS + (endNs % NS_PER_MS !== 0n ? 1n : 0n);
  return [Number(startNs / NS_PER_MS), Number(through)];
}
