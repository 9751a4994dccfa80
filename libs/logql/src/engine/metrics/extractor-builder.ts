/**
 * Builds the sample extractor of a range aggregation from its AST: the log pipeline (via the
 * pipeline compiler), then a line extractor (count / bytes) or an unwrap extractor with its
 * post-unwrap label filters, the label grouping (`by`/`without` of the range aggregation, or
 * one pushed down from an enclosing `sum`), and the parser hints that grouping allows
 * (Loki's `RangeAggregationExpr.extractor`).
 */
import type { Matcher } from '@logsvc/api';
import type { MetadataEquals } from '@logsvc/chunk';
import { NO_PARSER_HINTS, newParserHints, type ParserHints } from '../../log/parser-hints';
import type { Pipeline } from '../../log/pipeline';
import {
  LabelSampleExtractor,
  LineSampleExtractor,
  type Grouping,
} from '../../log/sample-extractor';
import type { LogSelectorExpr, RangeAggregation } from '../../syntax/ast';
import { compileLabelFilter } from '../compile/label-filters';
import type { CompiledSampleQuery, SampleExtractorBuilder } from './context';
import { preservesParserErrors } from './preserve-errors';
import { labelFilterNames, stageLabels } from './stage-labels';

/** The pipeline compiler's signature: a log query to its stream matchers and pipeline. */
export type PipelineCompiler = (expr: LogSelectorExpr) => {
  readonly matchers: readonly Matcher[];
  readonly pipeline: Pipeline;
  readonly lineContains?: Buffer;
  readonly lineContainsAny?: readonly Buffer[];
  readonly metadataEquals?: readonly MetadataEquals[];
};

export interface ExtractorBuilderOptions {
  /** Parser hints on (the default, as Loki); off extracts every label, for comparisons. */
  readonly parserHints?: boolean;
}

export function createSampleExtractorBuilder(
  compile: PipelineCompiler,
  options: ExtractorBuilderOptions = {},
): SampleExtractorBuilder {
  const hinted = options.parserHints ?? true;
  return (expr, pushed) => buildWith(compile, expr, hinted, pushed);
}

function buildWith(
  compile: PipelineCompiler,
  expr: RangeAggregation,
  hinted: boolean,
  pushed?: { readonly labels: readonly string[]; readonly without: boolean },
): CompiledSampleQuery {
  const { matchers, pipeline, lineContains, lineContainsAny, metadataEquals } = compile(
    expr.range.log,
  );
  const source = {
    ...(lineContains === undefined ? {} : { lineContains }),
    ...(lineContainsAny === undefined ? {} : { lineContainsAny }),
    ...(metadataEquals === undefined ? {} : { metadataEquals }),
    matchers,
  };
  const stages = pipeline.stages;
  const grouping =
    pushed ??
    (expr.grouping === undefined
      ? undefined
      : { labels: expr.grouping.labels, without: expr.grouping.without });
  // `by ()` (or a bare `sum`) keeps no label; absent_over_time needs none either.
  const noLabels =
    (grouping !== undefined && !grouping.without && grouping.labels.length === 0) ||
    expr.op === 'absent_over_time';
  const preserve = preservesParserErrors(
    expr,
    grouping ?? (noLabels ? { labels: [], without: false } : undefined),
  );
  const unwrap = expr.range.unwrap;
  const hints = hinted ? hintsFor(expr, grouping, noLabels, preserve) : NO_PARSER_HINTS;
  const extractorGrouping: Grouping | undefined = noLabels
    ? { labels: [], without: false, noLabels: true }
    : grouping;
  if (unwrap === undefined) {
    const kind = expr.op === 'bytes_over_time' || expr.op === 'bytes_rate' ? 'bytes' : 'count';
    return {
      ...source,
      extractor: new LineSampleExtractor(stages, kind, extractorGrouping, preserve, hints),
    };
  }
  const post = unwrap.postFilters.map(compileLabelFilter);
  const { label, conversion } = unwrap;
  return {
    ...source,
    extractor: new LabelSampleExtractor(
      stages,
      label,
      conversion,
      post,
      extractorGrouping,
      preserve,
      hints,
    ),
  };
}

function hintsFor(
  expr: RangeAggregation,
  grouping: { readonly labels: readonly string[]; readonly without: boolean } | undefined,
  noLabels: boolean,
  preserveError: boolean,
): ParserHints {
  const unwrap = expr.range.unwrap;
  const stageNames = stageLabels(expr.range.log.stages);
  let groups = grouping?.labels ?? [];
  let without = grouping?.without ?? false;
  if (unwrap !== undefined) {
    for (const f of unwrap.postFilters) stageNames.push(...labelFilterNames(f));
    // Loki turns an unwrap extraction without a `by` into `without (<label>)`.
    if (groups.length === 0 || without) {
      groups = [...groups, unwrap.label];
      without = true;
    }
  }
  return newParserHints({
    stageLabels: stageNames,
    groups,
    without,
    noLabels,
    preserveError,
    ...(unwrap === undefined ? {} : { unwrapLabel: unwrap.label }),
  });
}
