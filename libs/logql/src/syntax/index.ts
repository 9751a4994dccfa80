export * from './ast';
export { ParseError, lineCol } from './errors';
export {
  parseExpr,
  parseWithoutValidation,
  parseLogSelector,
  parseMatchers,
  MAX_INPUT_SIZE,
} from './parser';
export {
  printExpr,
  printLogSelector,
  printStreamSelector,
  printMatcher,
  printStage,
  printLabelFilter,
  printLogRange,
  printMetric,
  printNumber,
} from './printer';
export { formatQuery } from './format';
export { lokiExprString } from './loki-string';
export { prettyExpr, MAX_CHARS_PER_LINE } from './pretty';
export { walk, children, logSelectors, conjuncts, rangeReach } from './walk';
export {
  RANGE_FUNCTIONS,
  VECTOR_FUNCTIONS,
  isRangeAggregationOp,
  isVectorAggregationOp,
  type RangeFunctionSignature,
  type VectorFunctionSignature,
} from './functions';
export { binaryPrecedence, isRightAssociative } from './precedence';
export {
  matcherMatchesEmpty,
  constantValue,
  applyScalar,
  ERR_EMPTY_COMPATIBLE_MATCHERS,
} from './validate';
export { strconvQuote as quoteString } from '@logsvc/gocompat';
export { parseLogqlDuration, formatDuration, formatBytes } from './units';
export { tokenize } from './lexer';
export type { Token, TokenType } from './tokens';
export { stripPositions } from './strip-pos';
