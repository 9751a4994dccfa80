/**
 * Builds the sample extractor of a range aggregation from its AST: the log pipeline (via the
 * pipeline compiler), then a line extractor (count / bytes) or an unwrap extractor with its
 * post-unwrap label filters, and the label grouping (`by`/`without` of the range aggregation,
 * or one pushed down from an enclosing `sum`).
 */
import type { Labels } from '@logsvc/api';
import { LabelsResult } from '../../log/labels-builder';
import {
  LabelSampleExtractor,
  LineSampleExtractor,
  type SampleExtractor,
  type StreamSampleExtractor,
} from '../../log/sample-extractor';
import type { LogSelectorExpr, RangeAggregation } from '../../syntax/ast';
import type { Matcher } from '@logsvc/api';
import type { Pipeline } from '../../log/pipeline';
import { compileLabelFilter } from '../compile/label-filters';
import type { CompiledSampleQuery, SampleExtractorBuilder } from './context';
import { ERROR_LABEL } from './labels';
import { preservesParserErrors } from './preserve-errors';

/** The pipeline compiler's signature: a log query to its stream matchers and pipeline. */
export type PipelineCompiler = (expr: LogSelectorExpr) => {
  readonly matchers: readonly Matcher[];
  readonly pipeline: Pipeline;
  readonly lineContains?: Buffer;
};

export function createSampleExtractorBuilder(compile: PipelineCompiler): SampleExtractorBuilder {
  return (expr, pushed) => buildWith(compile, expr, pushed);
}

function buildWith(
  compile: PipelineCompiler,
  expr: RangeAggregation,
  pushed?: { readonly labels: readonly string[]; readonly without: boolean },
): CompiledSampleQuery {
  const compiled = withPrefilter(compile(expr.range.log));
  const { matchers, pipeline } = compiled;
  const stages = pipeline.stages;
  const grouping =
    pushed ??
    (expr.grouping === undefined
      ? undefined
      : { labels: expr.grouping.labels, without: expr.grouping.without });
  const preserve = preservesParserErrors(expr, grouping);
  const unwrap = expr.range.unwrap;
  if (unwrap === undefined) {
    const kind = expr.op === 'bytes_over_time' || expr.op === 'bytes_rate' ? 'bytes' : 'count';
    return {
      ...compiled.prefilter,
      matchers,
      extractor: new LineSampleExtractor(stages, kind, grouping, preserve),
    };
  }
  const post = unwrap.postFilters.map(compileLabelFilter);
  const { label, conversion } = unwrap;
  // `by ()` drops every label; the unwrap extractor reads an empty `by` as "no grouping".
  if (grouping !== undefined && !grouping.without && grouping.labels.length === 0) {
    const inner = new LabelSampleExtractor(stages, label, conversion, post, undefined, preserve);
    return { ...compiled.prefilter, matchers, extractor: new NoLabelsExtractor(inner) };
  }
  return {
    ...compiled.prefilter,
    matchers,
    extractor: new LabelSampleExtractor(stages, label, conversion, post, grouping, preserve),
  };
}

/** The compiled pipeline with its line prefilter as a spreadable `{ lineContains }`. */
function withPrefilter(c: ReturnType<PipelineCompiler>) {
  const prefilter = c.lineContains === undefined ? {} : { lineContains: c.lineContains };
  return { matchers: c.matchers, pipeline: c.pipeline, prefilter };
}

const EMPTY_RESULT = new LabelsResult([], '', [], [], []);

/** Gives every sample empty labels, except samples with an error (kept so it is reported). */
class NoLabelsExtractor implements SampleExtractor {
  constructor(private readonly inner: SampleExtractor) {}

  forStream(labels: Labels): StreamSampleExtractor {
    const sx = this.inner.forStream(labels);
    return {
      process(ts, line, sm) {
        const s = sx.process(ts, line, sm);
        if (s === null) return null;
        if (!s.labels.parsed.some((p) => p.name === ERROR_LABEL)) s.labels = EMPTY_RESULT;
        return s;
      },
    };
  }
}
