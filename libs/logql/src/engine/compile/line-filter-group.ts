/**
 * A run of line filters that reordering put together, built into one stage as Loki builds it.
 * Loki nests such a run into one `LineFilterExpr`, so a filter that cannot be built (bad
 * regex, pattern or ip range) fails the query as
 * `parse error : stage '<the whole run>' : <reason>`, and the reason is the first error met
 * walking the run as Loki's `LineFilterExpr.Filter` does: last filter first, the values of a
 * positive `or` chain in order, those of a negative one (which Loki nests too) last first.
 */
import { strconvQuote } from '@logsvc/gocompat';
import { StageBuildError } from '../../log/errors';
import { LineFilterStage, newLineFilter } from '../../log/line-filter';
import type { LineFilter as LineFilterNode, LineFilterOp, LineFilterValue } from '../../syntax/ast';
import { ParseError } from '../../syntax/errors';
import { compileLineFilter } from './line-filters';

export function compileLineFilterGroup(nodes: readonly LineFilterNode[]): LineFilterStage {
  try {
    return new LineFilterStage(nodes.map(compileLineFilter));
  } catch (err) {
    if (err instanceof StageBuildError) throw groupError(nodes);
    throw err;
  }
}

function groupError(nodes: readonly LineFilterNode[]): ParseError {
  for (const node of [...nodes].reverse()) {
    const values = isNegative(node.op) ? [...node.values].reverse() : node.values;
    for (const value of values) {
      try {
        newLineFilter(node.op, [value]);
      } catch (err) {
        if (!(err instanceof StageBuildError)) throw err;
        return ParseError.semantic(`stage '${lokiText(nodes)}' : ${err.message}`);
      }
    }
  }
  throw new Error('line filter group failed to build but no filter fails alone');
}

/** Loki's `LineFilterExpr.String()` of the run: `|= "a" or "b" != "c" != "d" |~ "e"`. */
export function lokiText(nodes: readonly LineFilterNode[]): string {
  return nodes
    .map((node) => {
      const separator = isNegative(node.op) ? ` ${node.op} ` : ' or ';
      return `${node.op} ${node.values.map(valueText).join(separator)}`;
    })
    .join(' ');
}

function valueText(v: LineFilterValue): string {
  return v.type === 'ip' ? `ip(${strconvQuote(v.value)})` : strconvQuote(v.value);
}

function isNegative(op: LineFilterOp): boolean {
  return op === '!=' || op === '!~' || op === '!>';
}
