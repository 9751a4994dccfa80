/**
 * Semantic checks with Loki's messages. Loki reports them as `parse error : <msg>` (no
 * position): node-construction checks (`mustNewBinOpExpr`, `newRangeAggregationExpr`,
 * `mustNewVectorAggregationExpr`) run while parsing, `validateExpr` after.
 */
import type {
  BinaryOp,
  Expr,
  LabelMatcher,
  MetricExpr,
  RangeAggregation,
  StreamSelector,
  VectorAggregation,
} from './ast';
import { checkLabelReplaceRegex, checkRegex } from './check-regex';
import { ParseError } from './errors';
import { RANGE_FUNCTIONS, VECTOR_FUNCTIONS } from './functions';
import { SET_OPS } from './tokens';

export const ERR_EMPTY_COMPATIBLE_MATCHERS =
  'queries require at least one regexp or equality matcher that does not have an empty-compatible value. For instance, app=~".*" does not meet this requirement, but app=~".+" will';

const SET_OP_NAMES: ReadonlySet<BinaryOp> = new Set(SET_OPS);

/** Go's `%T` of a log query in Loki's messages. */
function goTypeName(expr: Expr): string {
  if (expr.kind === 'LogSelectorExpr') {
    return expr.stages.length === 0 ? '*syntax.MatchersExpr' : '*syntax.PipelineExpr';
  }
  return '*syntax.' + expr.kind;
}

export function checkBinaryOperands(op: BinaryOp, lhs: Expr, rhs: Expr): void {
  if (lhs.kind === 'LogSelectorExpr') {
    throw ParseError.semantic(
      `unexpected type for left leg of binary operation (${op}): ${goTypeName(lhs)}`,
    );
  }
  if (rhs.kind === 'LogSelectorExpr') {
    throw ParseError.semantic(
      `unexpected type for right leg of binary operation (${op}): ${goTypeName(rhs)}`,
    );
  }
  if (SET_OP_NAMES.has(op)) {
    const l = constantValue(lhs);
    if (l !== undefined) {
      throw ParseError.semantic(
        `unexpected literal for left leg of logical/set binary operation (${op}): ${goFloat(l)}`,
      );
    }
    const r = constantValue(rhs);
    if (r !== undefined) {
      throw ParseError.semantic(
        `unexpected literal for right leg of logical/set binary operation (${op}): ${goFloat(r)}`,
      );
    }
  }
}

/**
 * The value of an expression made only of number literals (Loki folds these at parse time,
 * so they count as literals in its checks), else undefined.
 */
export function constantValue(expr: MetricExpr): number | undefined {
  if (expr.kind === 'NumberLiteral') return expr.value;
  if (expr.kind !== 'BinaryExpr') return undefined;
  const l = constantValue(expr.lhs);
  const r = constantValue(expr.rhs);
  if (l === undefined || r === undefined) return undefined;
  return applyScalar(expr.op, l, r);
}

/** Go's `math.Pow` where it differs from `Math.pow` (1^x and (-1)^±Inf are 1). */
function goPow(x: number, y: number): number {
  if (x === 1 || y === 0) return 1;
  if (x === -1 && (y === Infinity || y === -Infinity)) return 1;
  return Math.pow(x, y);
}

/**
 * Loki's `MergeBinOp` on two numbers: arithmetic with division and modulo by zero giving NaN,
 * comparisons giving 1 (true) / 0 (false). Used to fold literals and by the engine on samples.
 */
export function applyScalar(op: BinaryOp, l: number, r: number): number {
  switch (op) {
    case '+':
      return l + r;
    case '-':
      return l - r;
    case '*':
      return l * r;
    case '/':
      return r === 0 ? NaN : l / r;
    case '%':
      return r === 0 ? NaN : l % r;
    case '^':
      return goPow(l, r);
    case '==':
      return l === r ? 1 : 0;
    case '!=':
      return l !== r ? 1 : 0;
    case '>':
      return l > r ? 1 : 0;
    case '>=':
      return l >= r ? 1 : 0;
    case '<':
      return l < r ? 1 : 0;
    case '<=':
      return l <= r ? 1 : 0;
    default:
      return NaN;
  }
}

/** Go's `%f`. */
function goFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  return v.toFixed(6);
}

export function checkRangeAggregation(node: RangeAggregation, paramText?: string): void {
  const sig = RANGE_FUNCTIONS.get(node.op);
  if (sig === undefined) throw ParseError.semantic(`unknown range aggregation ${node.op}`);
  if (paramText !== undefined && sig.param === 'none') {
    throw ParseError.semantic(`parameter ${paramText} not supported for operation ${node.op}`);
  }
  if (paramText === undefined && sig.param === 'required') {
    throw ParseError.semantic(`parameter required for operation ${node.op}`);
  }
  if (node.grouping !== undefined && !sig.allowsGrouping) {
    throw ParseError.semantic(`grouping not allowed for ${node.op} aggregation`);
  }
  const hasUnwrap = node.range.unwrap !== undefined;
  if (hasUnwrap && sig.unwrap === 'forbidden') {
    throw ParseError.semantic(`invalid aggregation ${node.op} with unwrap`);
  }
  if (!hasUnwrap && sig.unwrap === 'required') {
    throw ParseError.semantic(`invalid aggregation ${node.op} without unwrap`);
  }
}

export function checkVectorAggregation(node: VectorAggregation, paramText?: string): void {
  const sig = VECTOR_FUNCTIONS.get(node.op);
  if (sig === undefined) throw ParseError.semantic(`unknown vector aggregation ${node.op}`);
  if (sig.param === 'k') {
    if (paramText === undefined) {
      throw ParseError.semantic(`parameter required for operation ${node.op}`);
    }
    // Go strconv.Atoi: an optional sign and decimal digits only.
    if (!/^[+-]?\d+$/.test(paramText) || !Number.isSafeInteger(Number(paramText))) {
      throw ParseError.semantic(`invalid parameter ${node.op}(${paramText},`);
    }
    if (Number(paramText) <= 0) {
      throw ParseError.semantic(
        `invalid parameter (must be greater than 0) ${node.op}(${paramText}`,
      );
    }
    if (sig.grouping === 'forbidden' && node.grouping !== undefined) {
      throw ParseError.semantic(`grouping not allowed for ${node.op} aggregation`);
    }
  } else if (paramText !== undefined) {
    throw ParseError.semantic(`unsupported parameter for operation ${node.op}(${paramText},`);
  }
}

/** The checks Loki's `validateExpr` makes on a parsed query. */
export function validateExpr(expr: Expr): void {
  switch (expr.kind) {
    case 'LogSelectorExpr':
      validateMatchers(expr.selector);
      return;
    case 'RangeAggregation':
      validateMatchers(expr.range.log.selector);
      return;
    case 'VectorAggregation':
      if (expr.op === 'sort' || expr.op === 'sort_desc') {
        if (expr.grouping !== undefined && expr.grouping.labels.length > 0) {
          throw ParseError.semantic("sort and sort_desc doesn't allow grouping by ");
        }
      }
      validateExpr(expr.expr);
      return;
    case 'BinaryExpr':
      validateExpr(expr.lhs);
      validateExpr(expr.rhs);
      return;
    case 'LabelReplaceExpr':
      // Loki keeps the regex error from the parse and returns it first (`Selector()`).
      checkLabelReplaceRegex(expr.regex);
      validateExpr(expr.expr);
      return;
    case 'NumberLiteral':
    case 'VectorExpr':
      return;
  }
}

/** At least one matcher must reject the empty string (`util.SplitFiltersAndMatchers`). */
export function validateMatchers(selector: StreamSelector): void {
  if (!selector.matchers.some((m) => !matcherMatchesEmpty(m))) {
    throw ParseError.semantic(ERR_EMPTY_COMPATIBLE_MATCHERS);
  }
}

export function matcherMatchesEmpty(m: LabelMatcher): boolean {
  switch (m.type) {
    case '=':
      return m.value === '';
    case '!=':
      return m.value !== '';
    case '=~':
      return checkRegex(m.value, true).test('');
    case '!~':
      return !checkRegex(m.value, true).test('');
  }
}
