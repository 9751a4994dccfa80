/**
 * Runs one conformance eval through `runQuery` over a `MemorySource` holding the scenario's
 * entries, and returns the result or the error it threw.
 */
import { labelsToString, type Labels, type QueryResult } from '@logsvc/api';
import { runQuery } from '../query';
import { MemorySource, type MemoryStream } from '../sources/memory-source';
import type { FixtureEntry, FixtureEval } from './fixture';
import { EPOCH_NS } from './render';

const NS_PER_MS = 1_000_000n;

/** One source per scenario: entries grouped into streams by their labels, in push order. */
export function sourceOf(entries: readonly FixtureEntry[]): MemorySource {
  const streams = new Map<string, { labels: Labels; entries: MemoryStream['entries'][number][] }>();
  for (const e of entries) {
    const key = labelsToString(e.labels);
    let s = streams.get(key);
    if (s === undefined) {
      s = { labels: e.labels, entries: [] };
      streams.set(key, s);
    }
    s.entries.push({
      timestampNs: EPOCH_NS + e.offsetNs,
      line: e.line,
      ...(e.metadata === undefined ? {} : { structuredMetadata: e.metadata }),
    });
  }
  return new MemorySource([...streams.values()]);
}

/** What an eval asks `runQuery` for, beyond the query and its source. */
function queryParams(ev: FixtureEval) {
  const page = { limit: 100, direction: 'backward' as const };
  switch (ev.kind) {
    case 'instant':
      return {
        ...page,
        kind: 'instant' as const,
        startNs: EPOCH_NS + ev.atNs,
        endNs: EPOCH_NS + ev.atNs,
      };
    case 'range':
      return {
        ...page,
        kind: 'range' as const,
        startNs: EPOCH_NS + ev.fromNs,
        endNs: EPOCH_NS + ev.toNs,
        stepMs: Number(ev.stepNs / NS_PER_MS),
      };
    case 'logs':
      return {
        kind: 'range' as const,
        startNs: EPOCH_NS + ev.fromNs,
        endNs: EPOCH_NS + ev.toNs,
        limit: ev.limit,
        direction: ev.direction,
        intervalMs: Number(ev.intervalNs) / 1e6,
        categorizeLabels: ev.categorized,
      };
  }
}

export async function runEval(ev: FixtureEval, source: MemorySource): Promise<QueryResult | Error> {
  try {
    return (await runQuery({ query: ev.query, tenants: 'fake', source, ...queryParams(ev) }))
      .result;
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}
