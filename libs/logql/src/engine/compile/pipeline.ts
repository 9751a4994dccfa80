/**
 * The pipeline compiler: a log query's AST to its stream matchers and a runtime Pipeline.
 * Stages are reordered as Loki does (line filters first within each segment), consecutive
 * line filters become one filter stage, and a stage that cannot be built (bad regex, pattern,
 * template, ip range...) fails as Loki's `parse error : stage '<stage>' : <reason>`.
 */
import type { Matcher } from '@logsvc/api';
import type { MetadataEquals } from '@logsvc/chunk';
import { StageBuildError } from '../../log/errors';
import { Pipeline, type Stage } from '../../log/pipeline';
import type {
  LineFilter as LineFilterNode,
  LogSelectorExpr,
  PipelineStage,
} from '../../syntax/ast';
import { ParseError } from '../../syntax/errors';
import { lokiStageText } from '../../syntax/stage-text';
import { compileLineFilterGroup } from './line-filter-group';
import { requiredAnyLiterals, requiredLiteral } from './line-filters';
import { leadingMetadataEquals } from './metadata-equals';
import { reorderStages } from './reorder';
import { compileStage } from './stages';

export interface CompiledPipeline {
  /** The stream selector's matchers, as plain `Matcher`s. */
  readonly matchers: Matcher[];
  readonly pipeline: Pipeline;
  /**
   * Bytes every line that survives the pipeline contains, implied by the line filters that
   * run first on the raw line. Pass it to `LogSource.select` as `lineContains`.
   */
  readonly lineContains?: Buffer;
  /**
   * When there is no `lineContains`: literals of which every line that survives contains one
   * (`|~ "a|b"`). Pass it to `LogSource.select` as `lineContainsAny`.
   */
  readonly lineContainsAny?: Buffer[];
  /**
   * Structured-metadata equalities every surviving line's entry satisfies (label filters at
   * the start of the pipeline). Pass it to `LogSource.select` as `metadataEquals`.
   */
  readonly metadataEquals?: MetadataEquals[];
}

export function compilePipeline(expr: LogSelectorExpr): CompiledPipeline {
  const matchers: Matcher[] = expr.selector.matchers.map((m) => ({
    type: m.type,
    name: m.name,
    value: m.value,
  }));
  const ordered = reorderStages(expr.stages);
  const stages: Stage[] = [];
  let filters: LineFilterNode[] = [];
  const flushFilters = (): void => {
    if (filters.length > 0) stages.push(compileLineFilterGroup(filters));
    filters = [];
  };
  for (const node of ordered) {
    if (node.kind === 'LineFilter') {
      filters.push(node);
      continue;
    }
    flushFilters();
    stages.push(build(node, () => compileStage(node)));
  }
  flushFilters();
  const literal = leadingLiteral(ordered);
  const any = literal === undefined ? leadingAnyLiterals(ordered) : undefined;
  const metadataEquals = leadingMetadataEquals(ordered);
  return {
    matchers,
    pipeline: new Pipeline(stages),
    ...(literal === undefined ? {} : { lineContains: Buffer.from(literal) }),
    ...(any === undefined ? {} : { lineContainsAny: any.map((l) => Buffer.from(l)) }),
    ...(metadataEquals === undefined ? {} : { metadataEquals }),
  };
}

function build<T>(node: PipelineStage, make: () => T): T {
  try {
    return make();
  } catch (err) {
    if (err instanceof StageBuildError) {
      throw ParseError.semantic(`stage '${lokiStageText(node)}' : ${err.message}`);
    }
    throw err;
  }
}

/** The first alternation of literals among the line filters at the start of the pipeline. */
function leadingAnyLiterals(ordered: readonly PipelineStage[]): string[] | undefined {
  for (const node of ordered) {
    if (node.kind !== 'LineFilter') break;
    const literals = requiredAnyLiterals(node);
    if (literals !== undefined) return literals;
  }
  return undefined;
}

/** The longest literal required by the line filters at the very start of the pipeline. */
function leadingLiteral(ordered: readonly PipelineStage[]): string | undefined {
  let best: string | undefined;
  for (const node of ordered) {
    if (node.kind !== 'LineFilter') break;
    const literal = requiredLiteral(node);
    if (literal !== undefined && (best === undefined || literal.length > best.length)) {
      best = literal;
    }
  }
  return best;
}
