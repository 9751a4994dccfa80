/**
 * Range aggregations (`count_over_time(...[5m])` and friends). The source is read once over
 * `(start - range - offset, end - offset]`; samples are grouped by series into typed arrays,
 * and each step slides a window `(t - offset - range, t - offset]` (lower bound exclusive,
 * upper bound inclusive, as Loki's `batchRangeVectorIterator`) over them.
 */
import type { Labels } from '@logsvc/api';
import type { LabelsResult } from '../../log/labels-builder';
import { ERROR_DETAILS_LABEL, ERROR_LABEL } from '../../log/errors';
import type { Sample, StreamSampleExtractor } from '../../log/sample-extractor';
import type { RangeAggregation, RangeAggregationOp } from '../../syntax/ast';
import { throwIfAborted, type EvalContext } from './context';
import { PipelineError } from './errors';
import { blockingError, compareLabels, metricOf } from './labels';
import { rangeFunction, type RangeFunction, type WindowContext } from './range-functions';
import { SampleSeries } from './sample-series';
import { SegmentGrid, SegmentSeries } from './segment-series';
import { BulkCounter } from './bulk-count';
import { type MemoryBudget, seriesBytes } from '../memory-budget';
import { TimeSlice } from '../time-slice';
import { tenantExtractor } from '../sources/multi-tenant';
import type { StepEvaluator } from './step-evaluator';
import { EMPTY_VECTOR, type Metric, type StepVector } from './types';
import type { EntryCursor } from '../source';

/** What a plain count is given for a line it does not read. */
const NO_LINE = Buffer.alloc(0);
/** What a byte count is given for a line it reads only the length of (longer ones: the line). */
const BLANK_LINES = Buffer.alloc(64 * 1024);

export interface PushedGrouping {
  readonly labels: readonly string[];
  readonly without: boolean;
}

/** A series' value over the current window, computed from segment counts and byte sums. */
function segmentFunction(op: RangeAggregationOp, rangeNs: number): (s: SegmentSeries) => number {
  const seconds = rangeNs / 1e9;
  switch (op) {
    case 'rate':
      return (s) => s.count() / seconds;
    case 'bytes_over_time':
      return (s) => s.sum();
    case 'bytes_rate':
      return (s) => s.sum() / seconds;
    case 'absent_over_time':
      return () => 1;
    default:
      return (s) => s.count();
  }
}

export class RangeAggregationEvaluator implements StepEvaluator {
  /** Per-sample storage (unwrapped ranges). */
  private samples: SampleSeries[] = [];
  /** Per-segment storage (line counts and bytes). */
  private segmented: SegmentSeries[] = [];
  private readonly grid: SegmentGrid | undefined;
  private readonly fn: RangeFunction;
  private readonly segmentFn: (s: SegmentSeries) => number;
  private readonly rangeNs: number;
  private readonly stepNs: number;
  private readonly count: number;

  constructor(
    private readonly expr: RangeAggregation,
    private readonly ctx: EvalContext,
    private readonly pushdown?: PushedGrouping,
  ) {
    this.fn = rangeFunction(expr.op, expr.range.unwrap !== undefined);
    this.segmentFn = segmentFunction(expr.op, expr.range.rangeNs);
    this.rangeNs = expr.range.rangeNs;
    this.stepNs = ctx.grid.stepNsNumber;
    this.count = ctx.grid.count;
    if (expr.range.unwrap === undefined) {
      this.grid = new SegmentGrid(this.count, this.stepNs, this.rangeNs);
    }
  }

  async load(): Promise<void> {
    const { ctx, expr } = this;
    const origin = ctx.grid.startNs - BigInt(expr.range.offsetNs);
    const lastEnd = (this.count - 1) * this.stepNs;
    const fromNs = origin - BigInt(this.rangeNs) + 1n;
    const throughNs = origin + BigInt(lastEnd) + 1n;
    const { matchers, extractor, lineContains, lineContainsAny, metadataEquals } =
      ctx.buildExtractor(expr, this.pushdown);
    throwIfAborted(ctx.signal);
    const streams = await ctx.source.select({
      tenant: ctx.tenant,
      matchers,
      fromNs,
      throughNs,
      direction: 'forward',
      stats: ctx.stats,
      signal: ctx.signal,
      ...(lineContains === undefined ? {} : { lineContains }),
      ...(lineContainsAny === undefined ? {} : { lineContainsAny }),
      ...(metadataEquals === undefined ? {} : { metadataEquals }),
      // No stage keeps a line past its entry: filters test it, parsers and templates copy
      // what they take out of it into strings, formatters make lines of their own, and the
      // sample is a number with labels; so lines may live in buffers reused block to block.
      transientLines: true,
    });
    const grid = this.grid;
    const bySegmentKey = new Map<string, SegmentSeries>();
    const bySampleKey = new Map<string, SampleSeries>();
    const slice = new TimeSlice();
    // One window (an instant query, a rule): every entry in the read range is in it, in its one
    // segment, so entries need no offset from the window's end (a BigInt subtraction each).
    const oneSegment = grid !== undefined && this.count === 1 ? grid.segmentOf(0, 0) : -1;
    const bulkCounter =
      grid === undefined ? null : new BulkCounter(grid, origin, fromNs, throughNs);
    for (const stream of streams) {
      const sx = tenantExtractor(extractor.forStream(stream.labels), stream.tenant);
      const bulk = sx.bulk;
      const summary = bulk === undefined ? null : (stream.entries.summarize?.() ?? null);
      if (bulkCounter !== null && bulk !== undefined && summary !== null) {
        const series = (): SegmentSeries =>
          seriesFor(bySegmentKey, bulk.labels(), ctx.budget, (m, e) => new SegmentSeries(m, e));
        const counted = bulkCounter.count(summary, bulk, series);
        if (counted !== null) {
          (stream.stats ?? ctx.stats.querier.store.chunk).postFilterLines += counted;
          if (slice.spent()) {
            await slice.pause();
            throwIfAborted(ctx.signal);
          }
          continue;
        }
      }
      const readsLine = sx.readsLine !== false;
      // Only its length: the line itself is never made (a columnar block's lines stay compressed).
      const lengthOnly = readsLine && sx.readsLineLength === true;
      // An extractor that reads lines in place gets offsets into the cursor's block, no view.
      const inPlace = readsLine ? sx.processRange : undefined;
      const cursor = stream.entries;
      // Blocks whose metadata the query cannot see are read without it (see `hidesMetadata`).
      const hides = sx.hidesMetadata;
      let blockNames: readonly string[] | undefined;
      let hidden = false;
      let lastLabels: LabelsResult | undefined;
      let lastSegments: SegmentSeries | undefined;
      let lastSamples: SampleSeries | undefined;
      let segment = 0;
      // Lines the pipeline kept, counted where the stream's source counts them (as Loki).
      let kept = 0;
      for (;;) {
        if (!cursor.next()) {
          // A source may fetch entries as they are read (chunks searched off the event loop).
          const more = cursor.wait?.();
          if (more === undefined || more === null) break;
          await more;
          throwIfAborted(ctx.signal);
          continue;
        }
        if (slice.spent()) {
          await slice.pause();
          throwIfAborted(ctx.signal);
        }
        const ts = cursor.timestampNs;
        if (ts < fromNs || ts >= throughNs) continue;
        let u = 0;
        if (oneSegment < 0) {
          u = Number(ts - origin);
          if (!this.inSomeWindow(u)) continue;
        }
        if (hides !== undefined) {
          const names = cursor.metadataNames;
          if (names !== blockNames) {
            blockNames = names;
            hidden = names !== undefined && hides(names);
          }
        }
        let sample = extract(sx, cursor, ts, inPlace, readsLine, lengthOnly, hidden);
        // An erroneous sample keeps every label, the metadata's too: read it after all.
        if (hidden && sample !== null && hasError(sample.labels)) {
          sample = extract(sx, cursor, ts, inPlace, readsLine, lengthOnly, false);
        }
        if (sample === null) continue;
        kept++;
        const result = sample.labels;
        if (grid !== undefined) {
          if (result !== lastLabels || lastSegments === undefined) {
            lastSegments = seriesFor(
              bySegmentKey,
              result,
              ctx.budget,
              (m, e) => new SegmentSeries(m, e),
            );
            lastLabels = result;
          }
          segment = oneSegment < 0 ? grid.segmentOf(u, segment) : oneSegment;
          lastSegments.add(segment, sample.value);
        } else {
          if (result !== lastLabels || lastSamples === undefined) {
            lastSamples = seriesFor(
              bySampleKey,
              result,
              ctx.budget,
              (m, e) => new SampleSeries(m, e),
            );
            lastLabels = result;
          }
          // Full: the push doubles its two arrays of doubles.
          if (lastSamples.length === lastSamples.ts.length)
            ctx.budget.charge(16 * lastSamples.length);
          lastSamples.push(u, sample.value);
        }
      }
      (stream.stats ?? ctx.stats.querier.store.chunk).postFilterLines += kept;
    }
    // Label order makes vectors deterministic (ties in topk/bottomk, error reporting).
    this.segmented = sortedSeries(bySegmentKey);
    this.samples = sortedSeries(bySampleKey);
  }

  /** Whether a sample at `u` (ns after the first window end) falls in any step's window. */
  private inSomeWindow(u: number): boolean {
    const step = this.stepNs;
    if (step === 0) return u <= 0 && u > -this.rangeNs;
    let k = u <= 0 ? 0 : Math.ceil(u / step);
    while (k * step < u) k++;
    while (k > 0 && (k - 1) * step >= u) k--;
    return k < this.count && k * step - this.rangeNs < u;
  }

  step(k: number): StepVector {
    const metrics: Metric[] = [];
    const values: number[] = [];
    const grid = this.grid;
    if (grid !== undefined) {
      const start = grid.startIndex[k];
      const end = grid.endIndex[k];
      for (const s of this.segmented) {
        if (!s.slide(start, end)) continue;
        if (s.error !== undefined) throw new PipelineError(s.error, s.metric.labels);
        metrics.push(s.metric);
        values.push(this.segmentFn(s));
      }
    } else {
      const end = k * this.stepNs;
      const start = end - this.rangeNs;
      const wctx: WindowContext = {
        rangeNs: this.rangeNs,
        windowEndNs: end,
        param: this.expr.param ?? 0,
      };
      for (const s of this.samples) {
        if (!s.slide(start, end)) continue;
        if (s.error !== undefined) throw new PipelineError(s.error, s.metric.labels);
        metrics.push(s.metric);
        values.push(this.fn(s.values, s.ts, s.lo, s.hi, wctx));
      }
    }
    return metrics.length === 0 ? EMPTY_VECTOR : { metrics, values };
  }
}

/** Bytes counted for a new series' sample or segment arrays at their first capacity. */
const SERIES_ARRAYS_BYTES = 256;

function seriesFor<T>(
  byKey: Map<string, T>,
  result: LabelsResult,
  budget: MemoryBudget,
  create: (metric: Metric, error: string | undefined) => T,
): T {
  let series = byKey.get(result.key);
  if (series === undefined) {
    const labels = result.labels;
    budget.charge(seriesBytes(result.key, labels) + SERIES_ARRAYS_BYTES);
    series = create({ labels, key: result.key }, blockingError(labels));
    byKey.set(result.key, series);
  }
  return series;
}

function sortedSeries<T extends { metric: Metric; finish(): void }>(byKey: Map<string, T>): T[] {
  const all = [...byKey.values()];
  for (const s of all) s.finish();
  return all.sort((a, b) => compareLabels(a.metric.labels, b.metric.labels));
}

/**
 * `absent_over_time`: at each step with no sample in the window, one sample of value 1 whose
 * labels are the selector's `=` matchers (a label matched more than once, or by another
 * matcher type, is left out).
 */
export class AbsentOverTimeEvaluator implements StepEvaluator {
  private readonly inner: RangeAggregationEvaluator;
  private readonly absent: StepVector;

  constructor(expr: RangeAggregation, ctx: EvalContext) {
    this.inner = new RangeAggregationEvaluator(expr, ctx);
    this.absent = { metrics: [metricOf(absentLabels(expr))], values: [1] };
  }

  load(): Promise<void> {
    return this.inner.load();
  }

  step(k: number): StepVector {
    return this.inner.step(k).metrics.length > 0 ? EMPTY_VECTOR : this.absent;
  }
}

export function absentLabels(expr: RangeAggregation): Labels {
  const equal = new Map<string, string>();
  const removed = new Set<string>();
  for (const m of expr.range.log.selector.matchers) {
    if (m.type === '=' && !equal.has(m.name)) equal.set(m.name, m.value);
    else removed.add(m.name);
  }
  for (const name of removed) equal.delete(name);
  return [...equal.entries()]
    .map(([name, value]) => ({ name, value }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The cursor's entry through the extractor, without its metadata when `hideMetadata`. */
function extract(
  sx: StreamSampleExtractor,
  cursor: EntryCursor,
  ts: bigint,
  inPlace: StreamSampleExtractor['processRange'],
  readsLine: boolean,
  lengthOnly: boolean,
  hideMetadata: boolean,
): Sample | null {
  const sm = hideMetadata ? undefined : cursor.structuredMetadata;
  if (inPlace !== undefined) {
    return inPlace(ts, cursor.lineSource, cursor.lineStart, cursor.lineEnd, sm);
  }
  const line = !readsLine ? NO_LINE : lengthOnly ? lineOfLength(cursor) : cursor.line;
  return sx.process(ts, line, sm);
}

/** Whether a sample's labels carry an error (then they are all of the entry's labels). */
function hasError(result: LabelsResult): boolean {
  const labels = result.labels;
  for (let i = 0; i < labels.length; i++) {
    const name = labels[i].name;
    if (name === ERROR_LABEL || name === ERROR_DETAILS_LABEL) return true;
  }
  return false;
}

/** A buffer as long as the cursor's line, without reading the line when it fits BLANK_LINES. */
function lineOfLength(cursor: EntryCursor): Buffer {
  const length = cursor.lineEnd - cursor.lineStart;
  return length <= BLANK_LINES.length ? BLANK_LINES.subarray(0, length) : cursor.line;
}
