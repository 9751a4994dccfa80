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
import { JsonFieldsExtraction, UNDECIDED } from './json-fields';
import {
  ConversionError,
  parseGoDurationSeconds,
  parseGoFloat,
  parseHumanBytes,
} from './conversions';
import { ERR_SAMPLE_EXTRACTION } from './errors';
import { metadataHider } from './hidden-metadata';
import {
  NO_GROUPING,
  type LabelGrouping,
  type LabelsBuilder,
  type LabelsResult,
} from './labels-builder';
import type { LabelFilter } from './label-filter';
import { NO_PARSER_HINTS, type ParserHints } from './parser-hints';
import { StreamPipeline, type Stage } from './pipeline';

const NO_LINE = Buffer.alloc(0);

export interface Sample {
  value: number;
  labels: LabelsResult;
}

/** How series labels are reduced, as `by (...)` / `without (...)` hints from the query. */
export interface Grouping {
  readonly labels: readonly string[];
  readonly without: boolean;
  /** `by ()` of an unwrap extraction (a line extraction reads an empty `by` so already). */
  readonly noLabels?: boolean;
}

export interface StreamSampleExtractor {
  /** Returns null when the entry is dropped. The returned object is reused by the next call. */
  process(timestampNs: bigint, line: Buffer, structuredMetadata?: Labels): Sample | null;
  /**
   * `process` on the line `source[start, end)`, for extractors that read it in place (no view
   * per line); absent on the others.
   */
  processRange?(
    timestampNs: bigint,
    source: Buffer,
    start: number,
    end: number,
    structuredMetadata?: Labels,
  ): Sample | null;
  /** False when `process` never looks at the line (any Buffer will do): a plain count. */
  readonly readsLine?: boolean;
  /**
   * True when `process` reads only the line's length (any Buffer of that length will do): the
   * bytes of a line no stage reads. Lets a reader skip decompressing lines (columnar chunks).
   */
  readonly readsLineLength?: boolean;
  /** Set when samples need no entry but its metadata names (see `BulkExtraction`). */
  bulk?: BulkExtraction;
  /**
   * Whether entries whose structured-metadata names (as stored) are all among `names` give
   * the same sample when given no metadata, as long as that sample carries no `__error__`
   * (an erroneous sample keeps every label: run such an entry again with its metadata). Lets
   * a reader leave a block's metadata undecoded (see `metadataHider`). Absent when the query
   * may see any metadata.
   */
  hidesMetadata?(names: readonly string[]): boolean;
}

/**
 * A line extraction with no stage: every entry whose structured metadata carries none of the
 * names `blockedBy` names (the grouped ones under `by`; any, without a `by`) gives the stream's
 * grouped labels and 1 (`count`) or its line's length (`bytes`). Lets a count add up block meta.
 */
export interface BulkExtraction {
  readonly kind: LineSampleKind;
  /** The labels of such an entry's sample. */
  labels(): LabelsResult;
  /** Whether entries carrying metadata of these names may give other labels. */
  blockedBy(metadataNames: readonly string[]): boolean;
}

export interface SampleExtractor {
  forStream(labels: Labels): StreamSampleExtractor;
}

/** The builder's grouping for a `Grouping`; an empty `by` keeps no label at all. */
function lineGrouping(grouping: Grouping | undefined): LabelGrouping {
  if (grouping === undefined) return NO_GROUPING;
  const names = [...new Set(grouping.labels)].sort();
  const noLabels = grouping.noLabels === true || (!grouping.without && names.length === 0);
  return { names, without: grouping.without, noLabels };
}

/**
 * The label names whose presence in an entry's structured metadata changes its grouped labels,
 * when only those can: `by (names)` (and `by ()`, where none can). Null for no grouping or
 * `without`, where every metadata label stays in the series.
 */
function groupedNames(g: LabelGrouping): ReadonlySet<string> | null {
  if (g.noLabels) return new Set();
  if (g.without || g.names.length === 0) return null;
  return new Set(g.names);
}

/** Whether an entry's metadata holds one of `names`, under the name the builder gives it. */
function namesAny(
  labels: Labels | undefined,
  names: ReadonlySet<string>,
  lbs: LabelsBuilder,
): boolean {
  if (labels === undefined || names.size === 0) return false;
  for (let i = 0; i < labels.length; i++) {
    if (names.has(lbs.metadataName(labels[i].name))) return true;
  }
  return false;
}

export type LineSampleKind = 'count' | 'bytes';

export class LineSampleExtractor implements SampleExtractor {
  private readonly labelGrouping: LabelGrouping;
  /** The direct route for `| json` and label filters under `by` (see `JsonFieldsExtraction`). */
  private readonly jsonFields: JsonFieldsExtraction | null;

  constructor(
    readonly stages: readonly Stage[],
    readonly kind: LineSampleKind,
    readonly grouping?: Grouping,
    /** Parser errors set `__preserve_error__` (see `LabelsBuilder.preserveParserErrors`). */
    readonly preserveParserErrors = false,
    /** What parsers need to extract (see `ParserHints`). */
    readonly hints: ParserHints = NO_PARSER_HINTS,
    /** Off runs every line through the pipeline (to compare the direct routes with it). */
    directRoutes = true,
  ) {
    this.labelGrouping = lineGrouping(grouping);
    this.jsonFields = directRoutes
      ? JsonFieldsExtraction.create(stages, this.labelGrouping, hints, preserveParserErrors)
      : null;
  }

  forStream(labels: Labels): StreamSampleExtractor {
    const pipeline = new StreamPipeline(labels, this.stages, this.preserveParserErrors);
    const lbs = pipeline.builder;
    lbs.hints = this.hints;
    lbs.grouping = this.labelGrouping;
    const bytes = this.kind === 'bytes';
    const sample: Sample = { value: 0, labels: pipeline.baseLabels() };
    const shortcut = this.stages.length === 0 ? groupedNames(this.labelGrouping) : null;
    let streamGrouped: LabelsResult | undefined;
    const direct = this.jsonFields?.forStream(labels);
    const grouped = (ts: bigint, line: Buffer): LabelsResult => {
      if (streamGrouped === undefined) {
        pipeline.run(ts, line, undefined);
        streamGrouped = lbs.groupedLabels();
      }
      return streamGrouped;
    };
    /** Everything after the direct route: the stream's grouped labels or the pipeline. */
    const rest = (ts: bigint, line: Buffer, sm: Labels | undefined): Sample | null => {
      if (shortcut !== null && !namesAny(sm, shortcut, lbs)) {
        // No stage and no grouped label in the entry's metadata: the stream's grouped labels.
        sample.value = bytes ? line.length : 1;
        sample.labels = grouped(ts, line);
        return sample;
      }
      const out = pipeline.run(ts, line, sm);
      if (out === null) return null;
      sample.value = bytes ? out.length : 1;
      sample.labels = lbs.groupedLabels();
      return sample;
    };
    /** The direct route's verdict as a sample; undefined when the pipeline must decide. */
    const directSample = (
      labels: LabelsResult | null | typeof UNDECIDED,
      length: number,
    ): Sample | null | undefined => {
      if (labels === null) return null;
      if (labels === UNDECIDED) return undefined;
      sample.value = bytes ? length : 1;
      sample.labels = labels;
      return sample;
    };
    const extractor: StreamSampleExtractor = {
      readsLine: this.stages.length > 0 || bytes,
      readsLineLength: bytes && this.stages.length === 0 && direct === undefined,
      process(ts, line, sm) {
        const s =
          direct === undefined ? undefined : directSample(direct.run(line, sm), line.length);
        return s !== undefined ? s : rest(ts, line, sm);
      },
    };
    if (this.stages.length === 0 && direct === undefined) {
      // Without a `by`, any metadata label is in the series: only entries with none are alike.
      const names = shortcut;
      extractor.bulk = {
        kind: this.kind,
        labels: () => grouped(0n, NO_LINE),
        blockedBy: (metadataNames) =>
          names === null
            ? metadataNames.length > 0
            : metadataNames.some((n) => names.has(lbs.metadataName(n))),
      };
    }
    const hides = metadataHider(this.stages, this.hints, this.labelGrouping, lbs);
    if (hides !== undefined) extractor.hidesMetadata = hides;
    if (direct !== undefined) {
      extractor.processRange = (ts, source, start, end, sm) => {
        const s = directSample(direct.runRange(source, start, end, sm), end - start);
        return s !== undefined ? s : rest(ts, source.subarray(start, end), sm);
      };
    } else if (pipeline.readsInPlace()) {
      // `| logfmt` and label filters read the line in place: no view per line.
      extractor.processRange = (ts, source, start, end, sm) => {
        const length = pipeline.runRange(ts, source, start, end, sm);
        if (length < 0) return null;
        sample.value = bytes ? length : 1;
        sample.labels = lbs.groupedLabels();
        return sample;
      };
    }
    return extractor;
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
  private readonly grouping: LabelGrouping;

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
    readonly hints: ParserHints = NO_PARSER_HINTS,
  ) {
    this.convert = converter(conversion);
    const noLabels = grouping?.noLabels === true;
    if (grouping === undefined || grouping.labels.length === 0 || grouping.without) {
      const names = [...new Set([...(grouping?.labels ?? []), labelName])].sort();
      this.grouping = { names, without: true, noLabels };
    } else {
      this.grouping = lineGrouping({ ...grouping, noLabels });
    }
  }

  forStream(labels: Labels): StreamSampleExtractor {
    const pipeline = new StreamPipeline(labels, this.stages, this.preserveParserErrors);
    const lbs = pipeline.builder;
    lbs.hints = this.hints;
    lbs.grouping = this.grouping;
    const { labelName, convert, postFilters } = this;
    const sample: Sample = { value: 0, labels: pipeline.baseLabels() };
    const hides = metadataHider(this.stages, this.hints, this.grouping, lbs);
    return {
      ...(hides === undefined ? {} : { hidesMetadata: hides }),
      process(ts, line, sm) {
        if (pipeline.run(ts, line, sm) === null) return null;
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
        sample.labels = lbs.groupedLabels();
        return sample;
      },
    };
  }
}
