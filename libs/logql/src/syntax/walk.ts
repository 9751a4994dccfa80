/** Generic traversal of the AST. */
import type { Expr, LabelFilter, LogSelectorExpr, Node } from './ast';

/** The direct children of a node, in source order. */
export function children(node: Node): Node[] {
  switch (node.kind) {
    case 'StreamSelector':
      return [...node.matchers];
    case 'LogSelectorExpr':
      return [node.selector, ...node.stages];
    case 'LineFilter':
      return [...node.values];
    case 'JsonParser':
    case 'LogfmtParser':
      return [...node.params];
    case 'LabelFilterStage':
      return [node.filter];
    case 'StringLabelFilter':
      return [node.matcher];
    case 'BinaryLabelFilter':
      return [node.left, node.right];
    case 'LabelFormat':
      return [...node.items];
    case 'DropLabels':
    case 'KeepLabels':
      return [...node.items];
    case 'LabelSelectorItem':
      return node.matcher !== undefined ? [node.matcher] : [];
    case 'Unwrap':
      return [...node.postFilters];
    case 'LogRange':
      return node.unwrap !== undefined ? [node.log, node.unwrap] : [node.log];
    case 'RangeAggregation':
      return node.grouping !== undefined ? [node.range, node.grouping] : [node.range];
    case 'VectorAggregation':
      return node.grouping !== undefined ? [node.grouping, node.expr] : [node.expr];
    case 'BinaryExpr':
      return node.matching !== undefined
        ? [node.lhs, node.matching, node.rhs]
        : [node.lhs, node.rhs];
    case 'LabelReplaceExpr':
      return [node.expr];
    default:
      return [];
  }
}

/**
 * Visits `node` and its descendants depth-first, parents before children. Returning `false`
 * from the visitor skips the children of that node.
 */
export function walk(
  node: Node,
  visit: (node: Node, parent: Node | undefined) => boolean | void,
): void {
  const stack: Array<[Node, Node | undefined]> = [[node, undefined]];
  while (stack.length > 0) {
    const [n, parent] = stack.pop() as [Node, Node | undefined];
    if (visit(n, parent) === false) continue;
    const kids = children(n);
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], n]);
  }
}

/** Every log selector of a query (one for each range aggregation, or the log query itself). */
export function logSelectors(expr: Expr): LogSelectorExpr[] {
  const out: LogSelectorExpr[] = [];
  walk(expr, (n) => {
    if (n.kind === 'LogSelectorExpr') {
      out.push(n);
      return false;
    }
    return undefined;
  });
  return out;
}

/**
 * How far before and after an evaluation time a query reads: its longest range plus a
 * positive offset (`backNs`), and its largest negative offset (`aheadNs`), over every
 * `[range]` of the query.
 */
export function rangeReach(expr: Expr): { backNs: number; aheadNs: number } {
  let backNs = 0;
  let aheadNs = 0;
  walk(expr, (n) => {
    if (n.kind !== 'LogRange') return undefined;
    backNs = Math.max(backNs, n.rangeNs + Math.max(0, n.offsetNs));
    aheadNs = Math.max(aheadNs, -Math.min(0, n.offsetNs));
    return undefined;
  });
  return { backNs, aheadNs };
}

/** Label filters flattened from a tree of `and`s (an `or` stays one element). */
export function conjuncts(filter: LabelFilter): LabelFilter[] {
  if (filter.kind === 'BinaryLabelFilter' && filter.op === 'and') {
    return [...conjuncts(filter.left), ...conjuncts(filter.right)];
  }
  return [filter];
}
