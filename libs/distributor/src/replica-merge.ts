// How the answers of several ingesters become one: replicas hold the same streams, so what they
// give is merged by stream, and copies are dropped.

import { labelsToString, type Labels } from '@logsvc/api';
import type { Direction, EntryCursor } from '@logsvc/chunk';
import {
  MergedCursor,
  newQueryStats,
  type IngesterReadStats,
  type StreamQueryResult,
  type StreamVolume,
} from '@logsvc/ingester';

/**
 * One result per stream (by label set, in order of first appearance): `entries` merges the
 * replicas' entries in `direction` order with every entry once (same timestamp and line is a
 * copy), `cursors` are all replicas' chunk cursors. As in an ingester's own result, `entries`
 * and `cursors` share their state: read one or the other. Answers come in priority order.
 */
export function mergeStreamResults(
  answers: readonly (readonly StreamQueryResult[])[],
  direction: Direction,
): StreamQueryResult[] {
  const byLabels = new Map<string, StreamQueryResult[]>();
  for (const answer of answers) {
    for (const result of answer) {
      const key = labelsToString(result.labels);
      const same = byLabels.get(key);
      if (same === undefined) byLabels.set(key, [result]);
      else same.push(result);
    }
  }
  const out: StreamQueryResult[] = [];
  for (const replicas of byLabels.values()) {
    const { labels, fingerprint } = replicas[0];
    const entries: EntryCursor =
      replicas.length === 1
        ? replicas[0].entries
        : new MergedCursor(
            replicas.map((r) => r.entries),
            direction,
          );
    out.push({ labels, fingerprint, cursors: replicas.flatMap((r) => r.cursors), entries });
  }
  return out;
}

/** Every value once, sorted (label names and values, as an ingester sorts them). */
export function sortedUnion(answers: readonly (readonly string[])[]): string[] {
  const all = new Set<string>();
  for (const answer of answers) for (const value of answer) all.add(value);
  return [...all].sort();
}

/** Every label set once, sorted by its text. */
export function uniqueSeries(answers: readonly (readonly Labels[])[]): Labels[] {
  const byText = new Map<string, Labels>();
  for (const answer of answers) {
    for (const labels of answer) {
      const text = labelsToString(labels);
      if (!byText.has(text)) byText.set(text, labels);
    }
  }
  return [...byText.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, l]) => l);
}

/**
 * One volume per stream, sorted by its label text. Replicas hold the same entries, so their
 * volumes are not added up: the largest is taken (the replica that missed the fewest writes).
 */
export function maxVolumes(answers: readonly (readonly StreamVolume[])[]): StreamVolume[] {
  const byText = new Map<string, StreamVolume>();
  for (const answer of answers) {
    for (const volume of answer) {
      const text = labelsToString(volume.labels);
      const seen = byText.get(text);
      if (seen === undefined || volume.bytes > seen.bytes) byText.set(text, volume);
    }
  }
  return [...byText.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}

export function newReadStats(): IngesterReadStats {
  return { ...newQueryStats(), ingestersReached: 0 };
}

/** Adds what one ingester read to the query's counters. */
export function addReadStats(total: IngesterReadStats, one: IngesterReadStats): void {
  total.totalChunksMatched += one.totalChunksMatched;
  total.headChunkBytes += one.headChunkBytes;
  total.headChunkLines += one.headChunkLines;
  total.compressedBytes += one.compressedBytes;
  total.ingestersReached += one.ingestersReached;
}
