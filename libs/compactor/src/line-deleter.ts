// Which lines delete requests remove: Loki's DeleteRequest.FilterFunction. A line is deleted
// when its stream matches the request's selector, its timestamp is within a part's
// [start, end] (milliseconds, both inclusive) and, when the query has filters, the query's
// pipeline keeps the line.
import { type Labels, type Matcher, compileMatcher } from '@logsvc/api';
import { type LogSelectorExpr, type log, compilePipeline, parseLogSelector } from '@logsvc/logql';
import type { DeleteRequestRecord } from './delete-request';

/** Whether the query has a filter (line or label), as Loki's `HasFilter`. */
export function hasLineOrLabelFilter(expr: LogSelectorExpr): boolean {
  return expr.stages.some((s) => s.kind === 'LineFilter' || s.kind === 'LabelFilterStage');
}

/** Decides for one entry of one stream whether a delete request removes it. */
export type LineDeletedFn = (timestampNs: bigint, line: Buffer, metadata: Labels) => boolean;

const NS_PER_MS = 1_000_000n;

interface CompiledRequest {
  readonly matchers: ReadonlyArray<{ name: string; matches(value: string): boolean }>;
  readonly pipeline: log.Pipeline | null;
  /** Parts in ns: [fromNs, throughNs], inclusive. */
  readonly parts: ReadonlyArray<readonly [bigint, bigint]>;
  readonly fromNs: bigint;
  readonly throughNs: bigint;
}

function compile(record: DeleteRequestRecord, onlyUnprocessed: boolean): CompiledRequest | null {
  const parts = record.parts
    .filter((p) => !onlyUnprocessed || !p.processed)
    .map((p) => [BigInt(p.startMs) * NS_PER_MS, BigInt(p.endMs) * NS_PER_MS] as const);
  if (parts.length === 0) return null;
  let expr: LogSelectorExpr;
  try {
    expr = parseLogSelector(record.query, false);
  } catch {
    return null; // checked when created; a bad record deletes nothing
  }
  const compiled = compilePipeline(expr);
  const matchers = compiled.matchers.map((m: Matcher) => {
    const c = compileMatcher(m);
    return { name: m.name, matches: (v: string) => c.matches(v) };
  });
  let fromNs = parts[0][0];
  let throughNs = parts[0][1];
  for (const [f, t] of parts) {
    if (f < fromNs) fromNs = f;
    if (t > throughNs) throughNs = t;
  }
  return {
    matchers,
    pipeline: hasLineOrLabelFilter(expr) ? compiled.pipeline : null,
    parts,
    fromNs,
    throughNs,
  };
}

function labelValue(labels: Labels, name: string): string {
  for (const p of labels) if (p.name === name) return p.value;
  return '';
}

/**
 * The delete requests of one tenant, compiled once: `forStream` gives the function that tells
 * which of a stream's lines are deleted, or null when no request touches the stream.
 */
export class LineDeleter {
  private readonly requests: CompiledRequest[];

  /** `onlyUnprocessed`: ignore parts already processed (the compactor's view). */
  constructor(records: readonly DeleteRequestRecord[], onlyUnprocessed = false) {
    this.requests = records
      .map((r) => compile(r, onlyUnprocessed))
      .filter((r): r is CompiledRequest => r !== null);
  }

  get empty(): boolean {
    return this.requests.length === 0;
  }

  /** The deletion test of a stream over [fromNs, throughNs], or null if nothing can match. */
  forStream(labels: Labels, fromNs = 0n, throughNs = 1n << 63n): LineDeletedFn | null {
    const fns: LineDeletedFn[] = [];
    for (const r of this.requests) {
      if (r.fromNs > throughNs || r.throughNs < fromNs) continue;
      if (!r.matchers.every((m) => m.matches(labelValue(labels, m.name)))) continue;
      const parts = r.parts;
      const inParts = (ts: bigint): boolean => {
        for (const [f, t] of parts) if (ts >= f && ts <= t) return true;
        return false;
      };
      if (r.pipeline === null) {
        fns.push(inParts);
        continue;
      }
      const sp = r.pipeline.forStream(labels);
      fns.push((ts, line, md) => inParts(ts) && sp.run(ts, line, md) !== null);
    }
    if (fns.length === 0) return null;
    if (fns.length === 1) return fns[0];
    return (ts, line, md) => fns.some((f) => f(ts, line, md));
  }

  /**
   * Whether every line of a chunk of the stream over [fromNs, throughNs] is deleted without
   * reading it: a request without filters whose one part covers the chunk (Loki's whole-chunk
   * delete).
   */
  coversWholeChunk(labels: Labels, fromNs: bigint, throughNs: bigint): boolean {
    return this.requests.some(
      (r) =>
        r.pipeline === null &&
        r.matchers.every((m) => m.matches(labelValue(labels, m.name))) &&
        r.parts.some(([f, t]) => f <= fromNs && t >= throughNs),
    );
  }
}
