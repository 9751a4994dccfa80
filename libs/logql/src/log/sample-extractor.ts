/**
 * Sample extraction for metric queries (`pkg/logql/log/metrics_extraction.go`): each kept
 * entry gives one value and the labels of its series.
 * - `LineSampleExtractor`: 1 per entry (`count_over_time`, `rate`) or the line's byte length
 *   (`bytes_over_time`, `bytes_rate`).
 * - `LabelSampleExtractor`: `| unwrap [bytes|duration|duration_seconds](label)`. An empty or
 *   missing label skips the entry; a value that does not convert keeps it with
 *   `__error__=SampleExtractionErr` and Go's error text as details; post-unwrap label filters
 *   then run. The unwrapped label is left out of the series labels.
 */
import type { Labels } from '@logsvc/api';
import {
  ConversionError,
  parseGoDurationSeconds,
  parseGoFloat,
  parseHumanBytes,
} from './conversions';
import { ERR_SAMPLE_EXTRACTION } from './errors';
import { labelsKey, LabelsResult } from './labels-builder';
import type { LabelFilter } from './label-filter';
import { StreamPipeline, type Stage } from './pipeline';

export interface Sample {
  value: number;
  labels: LabelsResult;
}

/** How series labels are reduced, as `by (...)` / `without (...)` hints from the query. */
export interface Grouping {
  readonly labels: readonly string[];
  readonly without: boolean;
}

export interface StreamSampleExtractor {
  /** Returns null when the entry is dropped. The returned object is reused by the next call. */
  process(timestampNs: bigint, line: Buffer, structuredMetadata?: Labels): Sample | null;
}

export interface SampleExtractor {
  forStream(labels: Labels): StreamSampleExtractor;
}

/** Applies a grouping to results, caching per result object (results are shared per stream). */
class Grouper {
  private readonly cache = new WeakMap<LabelsResult, LabelsResult>();
  private readonly names: ReadonlySet<string>;

  constructor(private readonly grouping: Grouping) {
    this.names = new Set(grouping.labels);
  }

  apply(result: LabelsResult): LabelsResult {
    // Like Loki, an entry with an error keeps all its labels so the error is not lost.
    if (result.parsed.some((p) => p.name === '__error__')) return result;
    let grouped = this.cache.get(result);
    if (grouped !== undefined) return grouped;
    const keep = (name: string): boolean => this.names.has(name) !== this.grouping.without;
    const labels = result.labels.filter((p) => keep(p.name));
    grouped = new LabelsResult(
      labels,
      labelsKey(labels),
      result.stream.filter((p) => keep(p.name)),
      result.structuredMetadata.filter((p) => keep(p.name)),
      result.parsed.filter((p) => keep(p.name)),
    );
    this.cache.set(result, grouped);
    return grouped;
  }
}

export type LineSampleKind = 'count' | 'bytes';

export class LineSampleExtractor implements SampleExtractor {
  constructor(
    readonly stages: readonly Stage[],
    readonly kind: LineSampleKind,
    readonly grouping?: Grouping,
    /** Parser errors set `__preserve_error__` (see `LabelsBuilder.preserveParserErrors`). */
    readonly preserveParserErrors = false,
  ) {}

  forStream(labels: Labels): StreamSampleExtractor {
    const pipeline = new StreamPipeline(labels, this.stages, this.preserveParserErrors);
    const grouper = this.grouping === undefined ? null : new Grouper(this.grouping);
    const bytes = this.kind === 'bytes';
    const sample: Sample = { value: 0, labels: pipeline.baseLabels() };
    return {
      process(ts, line, sm) {
        const r = pipeline.process(ts, line, sm);
        if (r === null) return null;
        sample.value = bytes ? r.line.length : 1;
        sample.labels = grouper === null ? r.labels : grouper.apply(r.labels);
        return sample;
      },
    };
  }
}

export type UnwrapConversion = '' | 'bytes' | 'duration' | 'duration_seconds';

function converter(conversion: UnwrapConversion): (text: string) => number {
  switch (conversion) {
    case '':
      return parseGoFloat;
    case 'bytes':
      return parseHumanBytes;
    case 'duration':
    case 'duration_seconds':
      return parseGoDurationSeconds;
  }
}

export class LabelSampleExtractor implements SampleExtractor {
  private readonly convert: (text: string) => number;
  private readonly grouping: Grouping;

  /**
   * @param stages the pipeline before `unwrap`
   * @param postFilters label filters written after `unwrap`
   * @param grouping `by`/`without` hint; by default `without (<label>)`, and the unwrapped
   *   label is always added to a `without` list, as Loki does
   */
  constructor(
    readonly stages: readonly Stage[],
    readonly labelName: string,
    readonly conversion: UnwrapConversion,
    readonly postFilters: readonly LabelFilter[] = [],
    grouping?: Grouping,
    readonly preserveParserErrors = false,
  ) {
    this.convert = converter(conversion);
    if (grouping === undefined || grouping.labels.length === 0) {
      this.grouping = { labels: [labelName], without: true };
    } else if (grouping.without) {
      this.grouping = { labels: [...grouping.labels, labelName], without: true };
    } else {
      this.grouping = grouping;
    }
  }

  forStream(labels: Labels): StreamSampleExtractor {
    const pipeline = new StreamPipeline(labels, this.stages, this.preserveParserErrors);
    const lbs = pipeline.builder;
    const grouper = new Grouper(this.grouping);
    const { labelName, convert, postFilters } = this;
    const sample: Sample = { value: 0, labels: pipeline.baseLabels() };
    return {
      process(ts, line, sm) {
        const r = pipeline.process(ts, line, sm);
        if (r === null) return null;
        const text = lbs.get(labelName);
        if (text === undefined || text === '') return null;
        let value = 0;
        try {
          value = convert(text);
        } catch (err) {
          if (!(err instanceof ConversionError)) throw err;
          lbs.setErr(ERR_SAMPLE_EXTRACTION);
          lbs.setErrorDetails(err.message);
        }
        for (const f of postFilters) if (!f.matches(lbs)) return null;
        sample.value = value;
        sample.labels = grouper.apply(lbs.labels());
        return sample;
      },
    };
  }
}
