/**
 * Parsing of the log side of LogQL: stream selectors, pipeline stages, label filters and
 * unwrap (grammar rules `selector`, `pipelineExpr`, `labelFilter`, `unwrapExpr` of Loki's
 * `expr.y`).
 */
import type {
  ComparisonOp,
  ExtractionParam,
  LabelFilter,
  LabelFormatItem,
  LabelMatcher,
  LabelSelectorItem,
  LineFilter,
  LineFilterOp,
  LineFilterValue,
  LogSelectorExpr,
  MatchType,
  PipelineStage,
  Pos,
  StreamSelector,
  Unwrap,
  UnwrapConversion,
} from './ast';
import { checkPatternParser, checkRegexpParser } from './check-parser-stage';
import { checkRegex } from './check-regex';
import type { TokenStream } from './token-stream';

const MATCH_TYPES: ReadonlySet<string> = new Set(['=', '!=', '=~', '!~']);
const LINE_FILTER_OPS: ReadonlySet<string> = new Set(['|=', '!=', '|~', '!~', '|>', '!>']);
const COMPARISON_OPS: ReadonlySet<string> = new Set(['==', '=', '!=', '>', '>=', '<', '<=']);
const CONVERSIONS: ReadonlySet<string> = new Set(['bytes', 'duration', 'duration_seconds']);

function pos(start: number, end: number): Pos {
  return { start, end };
}

/** `{a="b", c=~"d"}`. */
export function parseStreamSelector(ts: TokenStream): StreamSelector {
  const open = ts.expectOp('{');
  const matchers: LabelMatcher[] = [];
  if (ts.peek().type !== 'IDENT' && !ts.isOp('}')) throw ts.unexpected('IDENTIFIER or }');
  if (!ts.isOp('}')) {
    for (;;) {
      matchers.push(parseMatcher(ts));
      if (ts.isOp(',')) {
        ts.next();
        continue;
      }
      if (!ts.isOp('}')) throw ts.unexpected('} or ,');
      break;
    }
  }
  const close = ts.expectOp('}');
  return { kind: 'StreamSelector', pos: pos(open.start, close.end), matchers };
}

/** `name op "value"`; regexes are compiled once to reject invalid ones at parse time. */
export function parseMatcher(ts: TokenStream): LabelMatcher {
  const name = ts.expectIdent();
  const op = ts.peek();
  if (op.type !== 'OP' || !MATCH_TYPES.has(op.value)) throw ts.unexpected('= or =~ or !~ or !=');
  ts.next();
  const value = ts.expectType('STRING');
  return makeMatcher(name.value, op.value as MatchType, value.value, pos(name.start, value.end));
}

function makeMatcher(name: string, type: MatchType, value: string, p: Pos): LabelMatcher {
  if (type === '=~' || type === '!~') checkRegex(value, true);
  return { kind: 'LabelMatcher', pos: p, type, name, value };
}

/** A stream selector and the stages that follow it (not including `| unwrap`). */
export function parseLogSelectorExpr(ts: TokenStream): LogSelectorExpr {
  const selector = parseStreamSelector(ts);
  const stages = parseStages(ts);
  const end = stages.length > 0 ? stages[stages.length - 1].pos.end : selector.pos.end;
  return { kind: 'LogSelectorExpr', pos: pos(selector.pos.start, end), selector, stages };
}

/** Whether the next tokens start a pipeline stage (`| unwrap` is not a stage). */
function atStage(ts: TokenStream): boolean {
  const t = ts.peek();
  if (t.type !== 'OP') return false;
  // After a selector or a stage, Loki's grammar reads `!=` as a line filter, never as a
  // comparison: `{a="b"} != 5` fails at `5`, expecting a string or ip().
  if (LINE_FILTER_OPS.has(t.value)) return true;
  return t.value === '|' && !ts.isKw('unwrap', 1);
}

export function parseStages(ts: TokenStream): PipelineStage[] {
  const stages: PipelineStage[] = [];
  while (atStage(ts)) {
    const t = ts.peek();
    stages.push(t.value === '|' ? parsePipeStage(ts) : parseLineFilter(ts));
  }
  return stages;
}

function parseLineFilter(ts: TokenStream): LineFilter {
  const opTok = ts.next();
  const values: LineFilterValue[] = [parseLineFilterValue(ts)];
  while (ts.isKw('or')) {
    ts.next();
    values.push(parseLineFilterValue(ts));
  }
  const end = values[values.length - 1].pos.end;
  return {
    kind: 'LineFilter',
    pos: pos(opTok.start, end),
    op: opTok.value as LineFilterOp,
    values,
  };
}

function parseLineFilterValue(ts: TokenStream): LineFilterValue {
  const t = ts.peek();
  if (t.type === 'STRING') {
    ts.next();
    return { kind: 'LineFilterValue', pos: pos(t.start, t.end), type: 'text', value: t.value };
  }
  if (ts.isIp()) {
    ts.next();
    ts.expectOp('(');
    const value = ts.expectType('STRING');
    const close = ts.expectOp(')');
    return {
      kind: 'LineFilterValue',
      pos: pos(t.start, close.end),
      type: 'ip',
      value: value.value,
    };
  }
  throw ts.unexpected('STRING or ip');
}

function parsePipeStage(ts: TokenStream): PipelineStage {
  const pipe = ts.next();
  const t = ts.peek();
  const start = pipe.start;
  if (t.type === 'KW') {
    switch (t.value) {
      case 'json': {
        ts.next();
        const params = atParam(ts) ? parseExtractionParams(ts) : [];
        return { kind: 'JsonParser', pos: pos(start, ts.lastEnd()), params };
      }
      case 'logfmt': {
        ts.next();
        let strict = false;
        let keepEmpty = false;
        while (ts.peek().type === 'FLAG') {
          const flag = ts.next().value;
          if (flag === '--strict') strict = true;
          else keepEmpty = true;
        }
        const params = atParam(ts) ? parseExtractionParams(ts) : [];
        return { kind: 'LogfmtParser', pos: pos(start, ts.lastEnd()), strict, keepEmpty, params };
      }
      case 'regexp': {
        ts.next();
        const re = ts.expectType('STRING');
        checkRegexpParser(re.value);
        return { kind: 'RegexpParser', pos: pos(start, re.end), regex: re.value };
      }
      case 'pattern': {
        ts.next();
        const p = ts.expectType('STRING');
        checkPatternParser(p.value);
        return { kind: 'PatternParser', pos: pos(start, p.end), pattern: p.value };
      }
      case 'unpack':
        ts.next();
        return { kind: 'UnpackParser', pos: pos(start, t.end) };
      case 'line_format': {
        ts.next();
        const tmpl = ts.expectType('STRING');
        return { kind: 'LineFormat', pos: pos(start, tmpl.end), template: tmpl.value };
      }
      case 'label_format': {
        ts.next();
        const items = parseLabelFormatItems(ts);
        return { kind: 'LabelFormat', pos: pos(start, ts.lastEnd()), items };
      }
      case 'decolorize':
        ts.next();
        return { kind: 'Decolorize', pos: pos(start, t.end) };
      case 'drop':
      case 'keep': {
        ts.next();
        const items = parseLabelSelectorItems(ts);
        const p = pos(start, ts.lastEnd());
        return t.value === 'drop'
          ? { kind: 'DropLabels', pos: p, items }
          : { kind: 'KeepLabels', pos: p, items };
      }
      default:
        throw ts.unexpected();
    }
  }
  if (atLabelFilter(ts)) {
    const filter = parseLabelFilter(ts);
    return { kind: 'LabelFilterStage', pos: pos(start, filter.pos.end), filter };
  }
  throw ts.unexpected();
}

function atParam(ts: TokenStream): boolean {
  return ts.peek().type === 'IDENT';
}

/** `a="b.c", d` of json and logfmt. */
function parseExtractionParams(ts: TokenStream): ExtractionParam[] {
  const params: ExtractionParam[] = [];
  for (;;) {
    const name = ts.expectIdent();
    let expression = name.value;
    let end = name.end;
    if (ts.isOp('=')) {
      ts.next();
      const expr = ts.expectType('STRING');
      expression = expr.value;
      end = expr.end;
    }
    params.push({
      kind: 'ExtractionParam',
      pos: pos(name.start, end),
      name: name.value,
      expression,
    });
    if (!ts.isOp(',')) return params;
    ts.next();
  }
}

function parseLabelFormatItems(ts: TokenStream): LabelFormatItem[] {
  const items: LabelFormatItem[] = [];
  for (;;) {
    const name = ts.expectIdent();
    ts.expectOp('=');
    const v = ts.peek();
    if (v.type !== 'IDENT' && v.type !== 'STRING') throw ts.unexpected('IDENTIFIER or STRING');
    ts.next();
    items.push({
      kind: 'LabelFormatItem',
      pos: pos(name.start, v.end),
      name: name.value,
      rename: v.type === 'IDENT',
      value: v.value,
    });
    if (!ts.isOp(',')) return items;
    ts.next();
  }
}

/** `a, b="x", c=~"y"` of drop and keep. */
function parseLabelSelectorItems(ts: TokenStream): LabelSelectorItem[] {
  const items: LabelSelectorItem[] = [];
  for (;;) {
    const name = ts.expectIdent();
    const op = ts.peek();
    if (op.type === 'OP' && MATCH_TYPES.has(op.value)) {
      ts.next();
      const value = ts.expectType('STRING');
      const p = pos(name.start, value.end);
      const matcher = makeMatcher(name.value, op.value as MatchType, value.value, p);
      items.push({ kind: 'LabelSelectorItem', pos: p, name: name.value, matcher });
    } else {
      items.push({ kind: 'LabelSelectorItem', pos: pos(name.start, name.end), name: name.value });
    }
    if (!ts.isOp(',')) return items;
    ts.next();
  }
}

// ---------------------------------------------------------------------------------------------
// Label filters. Precedence as goyacc resolves Loki's ambiguous rules: `and` binds tighter than
// `or`, both left-associative; `,` and juxtaposition have no precedence, so the parser always
// shifts and they take everything to their right as the right operand.

function atLabelFilter(ts: TokenStream): boolean {
  return ts.peek().type === 'IDENT' || ts.isOp('(');
}

export function parseLabelFilter(ts: TokenStream): LabelFilter {
  ts.enter();
  let left = parseAndFilter(ts);
  while (ts.isKw('or')) {
    ts.next();
    const right = parseAndFilter(ts);
    left = binary('or', left, right);
  }
  ts.leave();
  return left;
}

function parseAndFilter(ts: TokenStream): LabelFilter {
  let left = parseCommaChain(ts);
  while (ts.isKw('and')) {
    ts.next();
    const right = parseCommaChain(ts);
    left = binary('and', left, right);
  }
  return left;
}

/** A primary filter, and if `,` or another filter follows, `and` with all the rest. */
function parseCommaChain(ts: TokenStream): LabelFilter {
  const first = parsePrimaryFilter(ts);
  if (ts.isOp(',')) {
    ts.next();
    return binary('and', first, parseLabelFilter(ts));
  }
  if (atLabelFilter(ts)) return binary('and', first, parseLabelFilter(ts));
  return first;
}

function binary(op: 'and' | 'or', left: LabelFilter, right: LabelFilter): LabelFilter {
  return {
    kind: 'BinaryLabelFilter',
    pos: pos(left.pos.start, right.pos.end),
    op,
    left,
    right,
  };
}

function parsePrimaryFilter(ts: TokenStream): LabelFilter {
  if (ts.isOp('(')) {
    ts.next();
    const inner = parseLabelFilter(ts);
    ts.expectOp(')');
    return inner;
  }
  const name = ts.expectType('IDENT', 'IDENTIFIER or (');
  const opTok = ts.peek();
  if (opTok.type !== 'OP' || !(COMPARISON_OPS.has(opTok.value) || MATCH_TYPES.has(opTok.value))) {
    throw ts.unexpected();
  }
  ts.next();
  const op = opTok.value;
  const v = ts.peek();
  if (v.type === 'STRING' && MATCH_TYPES.has(op)) {
    ts.next();
    const matcher = makeMatcher(name.value, op as MatchType, v.value, pos(name.start, v.end));
    return { kind: 'StringLabelFilter', pos: matcher.pos, matcher };
  }
  if ((op === '=' || op === '!=') && ts.isIp()) {
    ts.next();
    ts.expectOp('(');
    const pattern = ts.expectType('STRING');
    const close = ts.expectOp(')');
    return {
      kind: 'IpLabelFilter',
      pos: pos(name.start, close.end),
      name: name.value,
      op,
      pattern: pattern.value,
    };
  }
  if (!COMPARISON_OPS.has(op)) throw ts.unexpected('STRING');
  const cmp = op as ComparisonOp;
  if (v.type === 'DURATION') {
    ts.next();
    const p = pos(name.start, v.end);
    return { kind: 'DurationLabelFilter', pos: p, name: name.value, op: cmp, valueNs: v.num };
  }
  if (v.type === 'BYTES') {
    ts.next();
    return {
      kind: 'BytesLabelFilter',
      pos: pos(name.start, v.end),
      name: name.value,
      op: cmp,
      value: v.num,
    };
  }
  let sign = 1;
  if (v.type === 'OP' && (v.value === '+' || v.value === '-')) {
    ts.next();
    if (ts.peek().type !== 'NUMBER') throw ts.unexpected('NUMBER');
    sign = v.value === '-' ? -1 : 1;
  }
  const num = ts.peek();
  // Five or more tokens could follow here (DURATION, BYTES, NUMBER, +, -; also STRING and ip
  // after `=`/`!=`): goyacc then names none of them.
  if (num.type !== 'NUMBER') throw ts.unexpected();
  ts.next();
  return {
    kind: 'NumberLabelFilter',
    pos: pos(name.start, num.end),
    name: name.value,
    op: cmp,
    value: sign * num.num,
  };
}

// ---------------------------------------------------------------------------------------------

/** `| unwrap [conv(]label[)]` and the label filters after it. */
export function parseUnwrap(ts: TokenStream): Unwrap {
  const pipe = ts.expectOp('|');
  if (!ts.isKw('unwrap')) throw ts.unexpected('unwrap');
  ts.next();
  let conversion: UnwrapConversion = '';
  let label: string;
  const t = ts.peek();
  if (t.type === 'FUNC' && CONVERSIONS.has(t.value)) {
    ts.next();
    conversion = t.value as UnwrapConversion;
    ts.expectOp('(');
    label = ts.expectIdent().value;
    ts.expectOp(')');
  } else {
    label = ts.expectType(
      'IDENT',
      'IDENTIFIER or BYTES_CONV or DURATION_CONV or DURATION_SECONDS_CONV',
    ).value;
  }
  const postFilters: LabelFilter[] = [];
  while (
    ts.isOp('|') &&
    ts.peek(1).type !== 'KW' &&
    (ts.peek(1).type === 'IDENT' || ts.isOp('(', 1))
  ) {
    ts.next();
    postFilters.push(parseLabelFilter(ts));
  }
  // Only a label filter may follow `| unwrap x |`: Loki's grammar takes the `|` and fails on
  // the token after it (`| unwrap x | json` → `unexpected json`).
  if (ts.isOp('|')) throw ts.unexpected('IDENTIFIER or (', ts.peek(1));
  return { kind: 'Unwrap', pos: pos(pipe.start, ts.lastEnd()), label, conversion, postFilters };
}

export function atUnwrap(ts: TokenStream): boolean {
  return ts.isOp('|') && ts.isKw('unwrap', 1);
}
