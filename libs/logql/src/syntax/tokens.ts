/** Token kinds and keyword tables of the LogQL lexer (`pkg/logql/syntax/lex.go`). */
import type { ArithmeticOp, ComparisonBinOp, SetOp } from './ast';

export type TokenType =
  | 'EOF'
  | 'IDENT'
  | 'STRING'
  | 'NUMBER'
  | 'DURATION'
  | 'BYTES'
  | 'RANGE'
  | 'FLAG'
  /** Punctuation and operators; `value` is the operator text. */
  | 'OP'
  /** Always-reserved words; `value` is the lower-cased word. */
  | 'KW'
  /** A function name directly followed by `(` (or `by`/`without` and `(`); lower-cased. */
  | 'FUNC'
  /** Where the lexer failed; the last token. Reading it throws `error`. */
  | 'ERROR'
  /** A character that starts no token (`@`, `$`, `~` ...); Loki's lexer calls it IDENTIFIER. */
  | 'OTHER';

export interface Token {
  readonly type: TokenType;
  /** Operator, keyword, function or flag text; identifier text; decoded string value. */
  readonly value: string;
  /** NUMBER value, DURATION/RANGE nanoseconds, BYTES count. */
  readonly num: number;
  readonly start: number;
  readonly end: number;
  /** ERROR tokens only: the lexer's error. */
  readonly error?: Error;
}

/** Words that are keywords wherever they appear (cannot be label names). */
export const RESERVED_WORDS: ReadonlySet<string> = new Set([
  'by',
  'without',
  'bool',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'offset',
  'unwrap',
  'or',
  'and',
  'unless',
  'json',
  'logfmt',
  'regexp',
  'unpack',
  'pattern',
  'line_format',
  'label_format',
  'decolorize',
  'drop',
  'keep',
]);

/**
 * Words that are keywords only when used as a function (`rate(`, `sum by (`); elsewhere they
 * are identifiers. Loki's lexer looks these up before its always-reserved words, so `ip` and
 * `label_replace` (in both of Loki's tables) are label names too: `| ip="10.1.2.3"`.
 */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set([
  'rate',
  'rate_counter',
  'count_over_time',
  'bytes_rate',
  'bytes_over_time',
  'avg_over_time',
  'sum_over_time',
  'min_over_time',
  'max_over_time',
  'stdvar_over_time',
  'stddev_over_time',
  'quantile_over_time',
  'first_over_time',
  'last_over_time',
  'absent_over_time',
  'vector',
  'sum',
  'avg',
  'max',
  'min',
  'count',
  'stddev',
  'stdvar',
  'bottomk',
  'topk',
  'sort',
  'sort_desc',
  'label_replace',
  'approx_topk',
  'bytes',
  'duration',
  'duration_seconds',
  'ip',
]);

/** Two-character operators, tried before single characters. */
export const TWO_CHAR_OPS: ReadonlySet<string> = new Set([
  '!=',
  '=~',
  '!~',
  '!>',
  '|=',
  '|~',
  '|>',
  '==',
  '>=',
  '<=',
]);

/** The binary operators of metric queries, by kind (Loki's precedence levels). */
export const ARITHMETIC_OPS: readonly ArithmeticOp[] = ['+', '-', '*', '/', '%', '^'];
export const COMPARISON_BIN_OPS: readonly ComparisonBinOp[] = ['==', '!=', '>', '>=', '<', '<='];
export const SET_OPS: readonly SetOp[] = ['and', 'or', 'unless'];

export const ONE_CHAR_OPS: ReadonlySet<string> = new Set([
  ',',
  '.',
  '{',
  '}',
  '=',
  '|',
  '(',
  ')',
  ']',
  ...ARITHMETIC_OPS,
  '>',
  '<',
]);

export const PARSER_FLAGS: ReadonlySet<string> = new Set(['--strict', '--keep-empty']);

/** How a token is named in `syntax error: unexpected X` messages (goyacc's names). */
export function tokenName(tok: Token): string {
  switch (tok.type) {
    case 'EOF':
      return '$end';
    case 'IDENT':
    case 'OTHER':
      return 'IDENTIFIER';
    case 'FLAG':
      return 'PARSER_FLAG';
    case 'OP':
      return tok.value;
    case 'KW':
      return tok.value;
    case 'FUNC':
      return funcTokenName(tok.value);
    default:
      return tok.type;
  }
}

/** goyacc's name of a function token; Loki renames those also in its `tokens` table. */
function funcTokenName(word: string): string {
  switch (word) {
    case 'ip':
    case 'label_replace':
      return word;
    case 'bytes':
      return 'BYTES_CONV';
    case 'duration':
      return 'DURATION_CONV';
    case 'duration_seconds':
      return 'DURATION_SECONDS_CONV';
    default:
      return word.toUpperCase();
  }
}
