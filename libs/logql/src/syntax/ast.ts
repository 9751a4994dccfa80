/**
 * The LogQL abstract syntax tree. Pure data: no compiled regexes, templates or closures, so an
 * AST can be compared, cloned, serialised and printed. The pipeline compiler (`log/`) and the
 * evaluator (`engine/`) turn it into runtime objects.
 *
 * Every node has a `kind` tag and a `pos` range: UTF-16 offsets into the query text,
 * `start` inclusive, `end` exclusive. Nodes built by hand (tests, rewrites) may use
 * `{ start: 0, end: 0 }`.
 *
 * Durations are integer nanoseconds held in a JS number (exact up to 2^53 ns, about 104 days,
 * and for any whole number of milliseconds beyond that that is a multiple of a large power of 2
 * such as 1d, 1w or 1y).
 */

export interface Pos {
  readonly start: number;
  readonly end: number;
}

// ---------------------------------------------------------------------------------------------
// Stream selector

export type MatchType = '=' | '!=' | '=~' | '!~';

/** `name="value"` in a stream selector, a `drop`/`keep` list or a string label filter. */
export interface LabelMatcher {
  readonly kind: 'LabelMatcher';
  readonly pos: Pos;
  readonly type: MatchType;
  readonly name: string;
  /** Unquoted value; for `=~`/`!~` the regex source (matched fully anchored). */
  readonly value: string;
}

/** `{a="b", c=~"d"}`: selects streams by their index labels. */
export interface StreamSelector {
  readonly kind: 'StreamSelector';
  readonly pos: Pos;
  readonly matchers: readonly LabelMatcher[];
}

// ---------------------------------------------------------------------------------------------
// Log pipeline stages

export type LineFilterOp = '|=' | '!=' | '|~' | '!~' | '|>' | '!>';

/** One alternative of a line filter: a string (literal, regex or pattern) or `ip("...")`. */
export interface LineFilterValue {
  readonly kind: 'LineFilterValue';
  readonly pos: Pos;
  /** `'ip'` for `ip("pattern")`, otherwise `'text'` (meaning depends on the filter op). */
  readonly type: 'text' | 'ip';
  readonly value: string;
}

/**
 * `|= "a"`, `!~ "re"`, `|> "<_> x"`, `|= ip("10.0.0.0/8")`, `|= "a" or "b"`.
 * `values` has one element, or several for an `or` chain. For the positive ops an `or` chain
 * means "any of"; for the negative ops (`!=`, `!~`, `!>`) it means "none of" (Loki's rule).
 * Only the last value of a chain may be an `ip(...)` (grammar).
 */
export interface LineFilter {
  readonly kind: 'LineFilter';
  readonly pos: Pos;
  readonly op: LineFilterOp;
  readonly values: readonly LineFilterValue[];
}

/** `json a="b.c", d`: a label name and the JSON path expression extracting its value. */
export interface ExtractionParam {
  readonly kind: 'ExtractionParam';
  readonly pos: Pos;
  readonly name: string;
  /** The expression text; for a bare identifier `d` this is `"d"` (same as `d="d"`). */
  readonly expression: string;
}

/** `| json` (all fields) or `| json a="path", b` (only the listed ones). */
export interface JsonParser {
  readonly kind: 'JsonParser';
  readonly pos: Pos;
  readonly params: readonly ExtractionParam[];
}

/** `| logfmt [--strict] [--keep-empty] [a="key", b]`. */
export interface LogfmtParser {
  readonly kind: 'LogfmtParser';
  readonly pos: Pos;
  readonly strict: boolean;
  readonly keepEmpty: boolean;
  readonly params: readonly ExtractionParam[];
}

/** `| regexp "re"`: RE2 source with at least one named group. */
export interface RegexpParser {
  readonly kind: 'RegexpParser';
  readonly pos: Pos;
  readonly regex: string;
}

/** `| pattern "<ip> - <_> <status>"`. */
export interface PatternParser {
  readonly kind: 'PatternParser';
  readonly pos: Pos;
  readonly pattern: string;
}

/** `| unpack`. */
export interface UnpackParser {
  readonly kind: 'UnpackParser';
  readonly pos: Pos;
}

export type ComparisonOp = '==' | '=' | '!=' | '>' | '>=' | '<' | '<=';

/** `name="v"`, `name=~"re"` (string label filter; regexes fully anchored). */
export interface StringLabelFilter {
  readonly kind: 'StringLabelFilter';
  readonly pos: Pos;
  readonly matcher: LabelMatcher;
}

/** `status >= 400`: label value parsed as a float. `=` and `==` are the same test. */
export interface NumberLabelFilter {
  readonly kind: 'NumberLabelFilter';
  readonly pos: Pos;
  readonly name: string;
  readonly op: ComparisonOp;
  readonly value: number;
}

/** `latency > 250ms`: label value parsed as a Go duration. */
export interface DurationLabelFilter {
  readonly kind: 'DurationLabelFilter';
  readonly pos: Pos;
  readonly name: string;
  readonly op: ComparisonOp;
  /** Nanoseconds (may be negative). */
  readonly valueNs: number;
}

/** `size > 20MB`: label value parsed with humanize.ParseBytes. */
export interface BytesLabelFilter {
  readonly kind: 'BytesLabelFilter';
  readonly pos: Pos;
  readonly name: string;
  readonly op: ComparisonOp;
  /** Bytes (KB = 1000, KiB = 1024). */
  readonly value: number;
}

/** `addr = ip("10.0.0.0/8")` / `addr != ip("...")`. */
export interface IpLabelFilter {
  readonly kind: 'IpLabelFilter';
  readonly pos: Pos;
  readonly name: string;
  readonly op: '=' | '!=';
  readonly pattern: string;
}

/**
 * `a and b`, `a, b`, `a b` (all `and`) or `a or b`. Precedence follows Loki's grammar: `and`
 * binds tighter than `or`; `,` and juxtaposition take everything to their right as the right
 * operand (yacc shift), e.g. `a, b or c` is `a and (b or c)`.
 */
export interface BinaryLabelFilter {
  readonly kind: 'BinaryLabelFilter';
  readonly pos: Pos;
  readonly op: 'and' | 'or';
  readonly left: LabelFilter;
  readonly right: LabelFilter;
}

export type LabelFilter =
  | StringLabelFilter
  | NumberLabelFilter
  | DurationLabelFilter
  | BytesLabelFilter
  | IpLabelFilter
  | BinaryLabelFilter;

/** `| <label filter>` as a pipeline stage. */
export interface LabelFilterStage {
  readonly kind: 'LabelFilterStage';
  readonly pos: Pos;
  readonly filter: LabelFilter;
}

/** `| line_format "{{.a}}"`: Go text/template source. */
export interface LineFormat {
  readonly kind: 'LineFormat';
  readonly pos: Pos;
  readonly template: string;
}

/** One `dst=src` (rename) or `dst="{{.tmpl}}"` (template) of a label_format stage. */
export interface LabelFormatItem {
  readonly kind: 'LabelFormatItem';
  readonly pos: Pos;
  readonly name: string;
  readonly rename: boolean;
  /** Source label name when `rename`, else the template source. */
  readonly value: string;
}

/** `| label_format a=b, c="{{.d}}"`. */
export interface LabelFormat {
  readonly kind: 'LabelFormat';
  readonly pos: Pos;
  readonly items: readonly LabelFormatItem[];
}

/** `| decolorize`. */
export interface Decolorize {
  readonly kind: 'Decolorize';
  readonly pos: Pos;
}

/** One entry of drop/keep: a bare name (`matcher` undefined) or a matcher `b="x"`. */
export interface LabelSelectorItem {
  readonly kind: 'LabelSelectorItem';
  readonly pos: Pos;
  readonly name: string;
  readonly matcher?: LabelMatcher;
}

/** `| drop a, b="x"`. */
export interface DropLabels {
  readonly kind: 'DropLabels';
  readonly pos: Pos;
  readonly items: readonly LabelSelectorItem[];
}

/** `| keep a, b=~"x.*"`. */
export interface KeepLabels {
  readonly kind: 'KeepLabels';
  readonly pos: Pos;
  readonly items: readonly LabelSelectorItem[];
}

export type ParserStage = JsonParser | LogfmtParser | RegexpParser | PatternParser | UnpackParser;

export type PipelineStage =
  | LineFilter
  | ParserStage
  | LabelFilterStage
  | LineFormat
  | LabelFormat
  | Decolorize
  | DropLabels
  | KeepLabels;

/**
 * A log query: a stream selector and its pipeline stages in source order (no hoisting; the
 * pipeline compiler reorders line filters the way Loki does). `{a="b"}` alone has no stages.
 */
export interface LogSelectorExpr {
  readonly kind: 'LogSelectorExpr';
  readonly pos: Pos;
  readonly selector: StreamSelector;
  readonly stages: readonly PipelineStage[];
}

// ---------------------------------------------------------------------------------------------
// Metric queries

export type UnwrapConversion = '' | 'bytes' | 'duration' | 'duration_seconds';

/** `| unwrap [conv(]label[)] [| post label filters...]`. */
export interface Unwrap {
  readonly kind: 'Unwrap';
  readonly pos: Pos;
  readonly label: string;
  /** `''` is the default float conversion. */
  readonly conversion: UnwrapConversion;
  /** Label filters after the unwrap, applied to each extracted sample. */
  readonly postFilters: readonly LabelFilter[];
}

/**
 * A range of logs: `{a="b"} | json [5m] offset 1h`, also written `{a="b"}[5m] | json`.
 * Both placements of the pipeline give the same node (stages in `log.stages`).
 */
export interface LogRange {
  readonly kind: 'LogRange';
  readonly pos: Pos;
  readonly log: LogSelectorExpr;
  readonly unwrap?: Unwrap;
  /** Window length in nanoseconds. */
  readonly rangeNs: number;
  /** `offset` in nanoseconds; 0 when absent. May be negative. */
  readonly offsetNs: number;
}

export type RangeAggregationOp =
  | 'count_over_time'
  | 'rate'
  | 'rate_counter'
  | 'bytes_over_time'
  | 'bytes_rate'
  | 'avg_over_time'
  | 'sum_over_time'
  | 'min_over_time'
  | 'max_over_time'
  | 'stddev_over_time'
  | 'stdvar_over_time'
  | 'quantile_over_time'
  | 'first_over_time'
  | 'last_over_time'
  | 'absent_over_time';

/** `by (a, b)` or `without (a)`; `labels` may be empty (`by ()`). */
export interface Grouping {
  readonly kind: 'Grouping';
  readonly pos: Pos;
  readonly without: boolean;
  readonly labels: readonly string[];
}

/** `quantile_over_time(0.99, {a="b"} | unwrap x [5m]) by (c)`. */
export interface RangeAggregation {
  readonly kind: 'RangeAggregation';
  readonly pos: Pos;
  readonly op: RangeAggregationOp;
  readonly range: LogRange;
  /** The φ of quantile_over_time; undefined for the other ops. */
  readonly param?: number;
  readonly grouping?: Grouping;
}

export type VectorAggregationOp =
  | 'sum'
  | 'avg'
  | 'min'
  | 'max'
  | 'stddev'
  | 'stdvar'
  | 'count'
  | 'topk'
  | 'bottomk'
  | 'sort'
  | 'sort_desc'
  | 'approx_topk';

/** `sum by (a) (expr)`, `topk(5, expr)`. */
export interface VectorAggregation {
  readonly kind: 'VectorAggregation';
  readonly pos: Pos;
  readonly op: VectorAggregationOp;
  readonly expr: MetricExpr;
  /** k of topk/bottomk/approx_topk (a positive integer); undefined otherwise. */
  readonly param?: number;
  /** Undefined when no by/without was written (distinct from `by ()`). */
  readonly grouping?: Grouping;
}

export type ArithmeticOp = '+' | '-' | '*' | '/' | '%' | '^';
export type ComparisonBinOp = '==' | '!=' | '>' | '>=' | '<' | '<=';
export type SetOp = 'and' | 'or' | 'unless';
export type BinaryOp = ArithmeticOp | ComparisonBinOp | SetOp;

/** `on(a)` / `ignoring(a)` and `group_left(b)` / `group_right(b)`. */
export interface VectorMatching {
  readonly kind: 'VectorMatching';
  readonly pos: Pos;
  /** true for `on(...)`, false for `ignoring(...)`. */
  readonly on: boolean;
  readonly labels: readonly string[];
  /** `'one-to-one'` unless a group modifier was given. */
  readonly card: 'one-to-one' | 'many-to-one' | 'one-to-many';
  /** The labels in `group_left(...)`/`group_right(...)` (copied from the "one" side). */
  readonly include: readonly string[];
}

/** `lhs op [bool] [on|ignoring(...) [group_left|group_right(...)]] rhs`. */
export interface BinaryExpr {
  readonly kind: 'BinaryExpr';
  readonly pos: Pos;
  readonly op: BinaryOp;
  readonly lhs: MetricExpr;
  readonly rhs: MetricExpr;
  /** `bool` modifier (comparisons return 0/1 instead of filtering). */
  readonly returnBool: boolean;
  readonly matching?: VectorMatching;
}

/**
 * A number (`1`, `-1.5`, `+2`). Unlike Loki, the parser does not fold `1 + 2` into `3`; the
 * evaluator does (same results). Parentheses are not nodes: the printer adds them where
 * precedence needs them.
 */
export interface NumberLiteral {
  readonly kind: 'NumberLiteral';
  readonly pos: Pos;
  readonly value: number;
}

/** `vector(1)`. */
export interface VectorExpr {
  readonly kind: 'VectorExpr';
  readonly pos: Pos;
  readonly value: number;
}

/** `label_replace(expr, "dst", "replacement", "src", "regex")` (regex fully anchored). */
export interface LabelReplaceExpr {
  readonly kind: 'LabelReplaceExpr';
  readonly pos: Pos;
  readonly expr: MetricExpr;
  readonly dst: string;
  readonly replacement: string;
  readonly src: string;
  readonly regex: string;
}

export type MetricExpr =
  RangeAggregation | VectorAggregation | BinaryExpr | NumberLiteral | VectorExpr | LabelReplaceExpr;

/** A whole query: a log query or a metric query. */
export type Expr = LogSelectorExpr | MetricExpr;

/** Every node type, for walkers. */
export type Node =
  | Expr
  | LabelMatcher
  | StreamSelector
  | LineFilterValue
  | PipelineStage
  | ExtractionParam
  | LabelFilter
  | LabelFormatItem
  | LabelSelectorItem
  | Unwrap
  | LogRange
  | Grouping
  | VectorMatching;

export type NodeKind = Node['kind'];

export function isLogExpr(expr: Expr): expr is LogSelectorExpr {
  return expr.kind === 'LogSelectorExpr';
}

export function isMetricExpr(expr: Expr): expr is MetricExpr {
  return expr.kind !== 'LogSelectorExpr';
}
