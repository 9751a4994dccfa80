/**
 * Helpers for the metric engine's specs (not exported from the library): an in-memory log
 * source and a runner printing results in the compact form of Loki's logqltest files; queries
 * run through the engine's own pipeline compiler.
 */
import {
  labelsFromRecord,
  labelsToString,
  matchesLabels,
  parseLabels,
  type Labels,
} from '@logsvc/api';
import { parseExpr } from '../../syntax/parser';
import type { MetricExpr } from '../../syntax/ast';
import { WholeLineCursor } from '@logsvc/chunk';
import type { LogSource, SelectParams, SourceStream } from '../source';
import { newQueryStats } from '../stats';
import { evaluateMetricQuery } from './query';
import type { MetricResult } from './types';

export interface TestEntry {
  readonly ns: bigint;
  readonly line: string;
  readonly metadata?: Readonly<Record<string, string>>;
}

const NS_PER_SEC = 1_000_000_000n;

/** `at(10)` = 10 s; `at(1.5)` = 1.5 s (ms precision). */
export function sec(s: number): bigint {
  return (BigInt(Math.round(s * 1000)) * NS_PER_SEC) / 1000n;
}

/** Entries `line` at `startSec`, then every `everySec`, `count` times in all. */
export function repeat(
  line: string,
  startSec: number,
  everySec: number,
  count: number,
  metadata?: Record<string, string>,
): TestEntry[] {
  const out: TestEntry[] = [];
  for (let i = 0; i < count; i++) out.push({ ns: sec(startSec + i * everySec), line, metadata });
  return out;
}

export function entry(line: string, atSec: number, metadata?: Record<string, string>): TestEntry {
  return { ns: sec(atSec), line, metadata };
}

class ArrayCursor extends WholeLineCursor {
  private i = -1;
  timestampNs = 0n;
  line = Buffer.alloc(0);
  structuredMetadata: Labels = [];

  constructor(private readonly entries: readonly TestEntry[]) {
    super();
  }

  next(): boolean {
    this.i++;
    if (this.i >= this.entries.length) return false;
    const e = this.entries[this.i];
    this.timestampNs = e.ns;
    this.line = Buffer.from(e.line);
    this.structuredMetadata = e.metadata === undefined ? [] : labelsFromRecord(e.metadata);
    return true;
  }
}

/** A source over fixed streams; `selects` records every call. */
export class TestSource implements LogSource {
  readonly selects: SelectParams[] = [];
  private readonly streams = new Map<string, { labels: Labels; entries: TestEntry[] }>();

  add(labels: string, entries: readonly TestEntry[]): this {
    const parsed = parseLabels(labels);
    const key = labelsToString(parsed);
    let s = this.streams.get(key);
    if (s === undefined) {
      s = { labels: parsed, entries: [] };
      this.streams.set(key, s);
    }
    s.entries.push(...entries);
    s.entries.sort((a, b) => (a.ns < b.ns ? -1 : a.ns > b.ns ? 1 : 0));
    return this;
  }

  async select(params: SelectParams): Promise<SourceStream[]> {
    this.selects.push(params);
    const out: SourceStream[] = [];
    for (const s of this.streams.values()) {
      if (!matchesLabels(params.matchers, s.labels)) continue;
      const entries = s.entries.filter((e) => e.ns >= params.fromNs && e.ns < params.throughNs);
      out.push({ labels: s.labels, entries: new ArrayCursor(entries) });
    }
    return out;
  }
}

export { evaluateMetricQuery };

export function metricExpr(query: string): MetricExpr {
  const expr = parseExpr(query);
  if (expr.kind === 'LogSelectorExpr') throw new Error('not a metric query');
  return expr;
}

export async function instant(
  source: LogSource,
  query: string,
  atSec: number,
  maxSeries?: number,
): Promise<MetricResult> {
  const t = sec(atSec);
  return evaluateMetricQuery(
    metricExpr(query),
    { tenant: 'fake', startNs: t, endNs: t, stepNs: 0n, kind: 'instant', maxSeries },
    source,
    newQueryStats(),
  );
}

export async function range(
  source: LogSource,
  query: string,
  fromSec: number,
  toSec: number,
  stepSec: number,
  maxSeries?: number,
): Promise<MetricResult> {
  return evaluateMetricQuery(
    metricExpr(query),
    {
      tenant: 'fake',
      startNs: sec(fromSec),
      endNs: sec(toSec),
      stepNs: sec(stepSec),
      kind: 'range',
      maxSeries,
    },
    source,
    newQueryStats(),
  );
}

/** An instant vector as `{labels}` → value, in result order (scalars as `scalar`). */
export async function instantValues(
  source: LogSource,
  query: string,
  atSec: number,
): Promise<Array<[string, number]>> {
  const r = await instant(source, query, atSec);
  if (r.type === 'scalar') return [['scalar', r.value]];
  if (r.type !== 'vector') throw new Error(`expected a vector, got ${r.type}`);
  return r.samples.map((s) => [labelsToString(s.labels), s.value]);
}

/**
 * A range result as `{labels}` → one entry per step: the value, or `_` where the series has
 * no point (the logqltest notation).
 */
export async function rangeValues(
  source: LogSource,
  query: string,
  fromSec: number,
  toSec: number,
  stepSec: number,
): Promise<Record<string, Array<number | '_'>>> {
  const r = await range(source, query, fromSec, toSec, stepSec);
  if (r.type !== 'matrix') throw new Error(`expected a matrix, got ${r.type}`);
  const steps: number[] = [];
  for (let t = fromSec; t <= toSec + 1e-9; t += stepSec) steps.push(Math.round(t * 1000));
  const out: Record<string, Array<number | '_'>> = {};
  for (const s of r.series) {
    const byTs = new Map(s.points.map(([ts, v]) => [ts, v]));
    out[labelsToString(s.labels)] = steps.map((ts) => byTs.get(ts) ?? '_');
  }
  return out;
}
