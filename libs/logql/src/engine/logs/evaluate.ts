/**
 * Evaluates a log query as Loki's `readStreams` (`pkg/logql/engine.go`): the selected
 * streams run through their pipelines (built once per stream), a heap merges them in
 * direction order (ties broken by label string), the first `limit` entries across all result
 * streams are kept, thinned by `interval`, and grouped by their post-pipeline label set into
 * streams sorted by labels. Reading stops as soon as the limit is reached.
 */
import { labelsToString, type Labels, type ResultEntry, type ResultStream } from '@logsvc/api';
import { labelsKey } from '../../log/labels-builder';
import type { LogSelectorExpr } from '../../syntax/ast';
import { compilePipeline } from '../compile';
import { QueryCanceledError } from '../metrics/errors';
import type { Direction, LogSource } from '../source';
import { tenantPipeline } from '../sources/multi-tenant';
import { ENTRY_OVERHEAD, type MemoryBudget, unlimitedBudget } from '../memory-budget';
import type { QueryStats } from '../stats';
import { TimeSlice } from '../time-slice';
import { Heap } from './heap';
import { Advance, StreamNode } from './stream-node';

export interface LogQueryParams {
  readonly tenant: string;
  /** Entries with `startNs <= ts < endNs`. */
  readonly startNs: bigint;
  readonly endNs: bigint;
  /** Entries returned at most, across all streams. */
  readonly limit: number;
  readonly direction: Direction;
  /** Minimum distance between returned entries (across streams); 0 or absent = all. */
  readonly intervalNs?: bigint;
  readonly signal?: AbortSignal;
  /**
   * Group by stream labels only and give each entry its structured metadata and parsed labels
   * (`X-Loki-Response-Encoding-Flags: categorize-labels`).
   */
  readonly categorizeLabels?: boolean;
  /** What the answer and the streams being merged may hold (`max_query_memory_bytes`). */
  readonly budget?: MemoryBudget;
}

export interface StreamsResult {
  readonly type: 'streams';
  readonly streams: ResultStream[];
}

interface OutStream {
  readonly labels: Labels;
  readonly text: string;
  readonly entries: ResultEntry[];
}

export async function evaluateLogQuery(
  expr: LogSelectorExpr,
  params: LogQueryParams,
  source: LogSource,
  stats: QueryStats,
): Promise<StreamsResult> {
  const { matchers, pipeline, lineContains, lineContainsAny, metadataEquals } =
    compilePipeline(expr);
  const limit = params.limit;
  if (limit <= 0 || params.endNs <= params.startNs) return { type: 'streams', streams: [] };
  throwIfAborted(params.signal);
  const streams = await source.select({
    tenant: params.tenant,
    matchers,
    fromNs: params.startNs,
    throughNs: params.endNs,
    direction: params.direction,
    stats,
    ...(lineContains === undefined ? {} : { lineContains }),
    ...(lineContainsAny === undefined ? {} : { lineContainsAny }),
    ...(metadataEquals === undefined ? {} : { metadataEquals }),
    ...(params.signal === undefined ? {} : { signal: params.signal }),
    limit,
    // A stream's kept line waits in its node until the merge takes it, and is copied into a
    // string then, before the node's cursor moves on: no line outlives its cursor's next entry.
    transientLines: true,
  });

  const forward = params.direction === 'forward';
  const heap = new Heap<StreamNode>((a, b) => {
    if (a.timestampNs !== b.timestampNs) {
      return forward ? a.timestampNs < b.timestampNs : a.timestampNs > b.timestampNs;
    }
    return a.labels !== b.labels && a.labels.toString() < b.labels.toString();
  });
  const chunkStats = stats.querier.store.chunk;
  const budget = new TimeSlice();
  const memory = params.budget ?? unlimitedBudget();
  for (const s of streams) {
    const sp = tenantPipeline(pipeline.forStream(s.labels), s.tenant);
    const node = new StreamNode(s.entries, sp, s.stats ?? chunkStats, memory);
    let found = advance(node, budget, params.signal);
    if (typeof found !== 'boolean') found = await found;
    if (found) heap.push(node);
  }

  const out = new Map<string, OutStream>();
  const interval = params.intervalNs ?? 0n;
  const categorize = params.categorizeLabels === true;
  let returned = 0;
  let last = 0n;
  while (returned < limit) {
    const node = heap.peek();
    if (node === undefined) break;
    const ts = node.timestampNs;
    if (
      interval <= 0n ||
      returned === 0 ||
      (forward ? ts >= last + interval : ts <= last - interval)
    ) {
      const labels = node.labels;
      const group = categorize ? labels.stream : labels.labels;
      const key = categorize ? labelsKey(group) : labels.key;
      let stream = out.get(key);
      if (stream === undefined) {
        const text = categorize ? labelsToString(group) : labels.toString();
        memory.charge(2 * text.length);
        stream = { labels: group, text, entries: [] };
        out.set(key, stream);
      }
      memory.charge(ENTRY_OVERHEAD + node.line.length);
      const line = node.line.toString('utf8');
      stream.entries.push(categorize ? [ts, line, labels.categories()] : [ts, line]);
      last = ts;
      returned++;
    }
    let found = advance(node, budget, params.signal);
    if (typeof found !== 'boolean') found = await found;
    if (found) heap.fixTop();
    else heap.pop();
  }
  return { type: 'streams', streams: sortStreams([...out.values()]) };
}

/**
 * Advances a node to its next kept entry. Synchronous while the time slice lasts and the
 * data is there (no promise per entry); when the slice is spent, yields to the event loop,
 * checks for cancellation and goes on with a new slice; when the cursor fetches more data,
 * waits for it.
 */
function advance(
  node: StreamNode,
  budget: TimeSlice,
  signal: AbortSignal | undefined,
): boolean | Promise<boolean> {
  const r = node.advance(budget);
  if (r === Advance.Ready || r === Advance.Done) return r === Advance.Ready;
  return continueAfterPause(node, r, budget, signal);
}

async function continueAfterPause(
  node: StreamNode,
  paused: Advance,
  budget: TimeSlice,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  for (let r = paused; ; r = node.advance(budget)) {
    if (r === Advance.Ready || r === Advance.Done) return r === Advance.Ready;
    if (r === Advance.Wait) {
      await node.waiting;
    } else {
      await budget.pause();
    }
    throwIfAborted(signal);
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new QueryCanceledError();
}

/** Loki sorts result streams by their label string. */
function sortStreams(streams: OutStream[]): ResultStream[] {
  streams.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  return streams.map((s) => ({ labels: s.labels, entries: s.entries }));
}
