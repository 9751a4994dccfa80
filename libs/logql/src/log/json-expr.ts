/**
 * `| json a="b.c", d="e[0]", f`: extracts the values at given paths (Loki's jsonexpr syntax:
 * `field`, `.field`, `["key"]`, `[0]` in any combination). Strings are unescaped, objects and
 * arrays give their raw JSON text, null gives `""`, and a missing path still creates the
 * label with `""`. A line that does not start with `"`, `{` or `[` sets `JSONParserErr` and
 * nothing else. Other lines are scanned as Loki does (`json-each-key.ts`): a truncated or
 * partly invalid line keeps the paths reachable before the damage, and only a requested value
 * that cannot be read sets `JSONParserErr` with jsonparser's message as details.
 */
import { ERR_JSON, StageBuildError } from './errors';
import { eachKey, type FoundValue } from './json-each-key';
import { JsonType, lokiJsonString } from './json-scanner';
import { LabelCategory, type LabelsBuilder } from './labels-builder';
import type { Stage } from './pipeline';
import { isValidLabelName } from '@logsvc/api';

export type JsonPathPart = string | number;

/** One extraction: the label to set and the JSON expression to read. */
export interface ExtractionParam {
  readonly identifier: string;
  readonly expression: string;
}

type PathToken =
  | { readonly kind: 'DOT' | 'LSB' | 'RSB' | '$end' }
  | { readonly kind: 'FIELD' | 'STRING'; readonly text: string }
  | { readonly kind: 'INDEX'; readonly index: number };

/** Loki's jsonexpr and logfmt expression scanners: a field or key `[A-Za-z_][A-Za-z0-9_]*`. */
export const isStartIdentifier = (c: string): boolean => /^[A-Za-z_]$/.test(c);
export const isIdentifier = (c: string): boolean => /^[A-Za-z0-9_]$/.test(c);
const isDigit = (c: string): boolean => c >= '0' && c <= '9';

/**
 * Loki's jsonexpr scanner: fields are `[A-Za-z_][A-Za-z0-9_]*`, a string runs from `"` to the
 * next `"` or `]` (no escapes), an index is digits. A character it cannot scan records an error
 * and ends the input, as Loki's does.
 */
class PathScanner {
  private i = 0;
  error: string | null = null;

  constructor(private readonly chars: readonly string[]) {}

  next(): PathToken {
    const { chars } = this;
    while (this.i < chars.length) {
      const c = chars[this.i++];
      if (c === '\0') break;
      if (c === ' ' || c === '\t' || c === '\n') continue;
      if (isDigit(c)) return this.index();
      if (c === '[') return { kind: 'LSB' };
      if (c === ']') return { kind: 'RSB' };
      if (c === '.') return { kind: 'DOT' };
      if (isStartIdentifier(c)) {
        const start = this.i - 1;
        while (this.i < chars.length && isIdentifier(chars[this.i])) this.i++;
        return { kind: 'FIELD', text: chars.slice(start, this.i).join('') };
      }
      if (c === '"') {
        let text = '';
        while (this.i < chars.length) {
          const d = chars[this.i++];
          if (d === '\0' || d === '"' || d === ']') break;
          text += d;
        }
        return { kind: 'STRING', text };
      }
      this.error = `unexpected char ${c}`;
      break;
    }
    return { kind: '$end' };
  }

  private index(): PathToken {
    const { chars } = this;
    const start = this.i - 1;
    for (;;) {
      const c = this.i < chars.length ? chars[this.i] : '\0';
      if (c === '.' && this.i > start) {
        this.error = 'cannot use float as array index';
        return { kind: '$end' };
      }
      if (c === ' ' || c === '\t' || c === '\n' || c === '.' || c === ']') break;
      if (!isDigit(c)) {
        this.error = `non-integer value: ${c}`;
        return { kind: '$end' };
      }
      this.i++;
    }
    return { kind: 'INDEX', index: Number(chars.slice(start, this.i).join('')) };
  }
}

/** What Loki's jsonexpr grammar accepts next, and how its parser words an error there. */
type PathState = 'start' | 'values' | 'dot' | 'bracket' | 'close';
const EXPECTING: Record<PathState, string> = {
  start: ', expecting LSB or FIELD',
  values: '',
  dot: ', expecting FIELD',
  bracket: ', expecting STRING or INDEX',
  close: ', expecting RSB',
};

/**
 * Parses a jsonexpr path such as `my.list[0]["field"]` with Loki's grammar and its error texts
 * (`syntax error: unexpected $end, expecting STRING or INDEX`); a scanner error stands when the
 * grammar accepts the input it cut short, as in Loki (`unexpected char -` for `my-key`).
 */
export function parseJsonPath(expr: string): JsonPathPart[] {
  const scanner = new PathScanner([...expr]);
  const parts: JsonPathPart[] = [];
  let state: PathState = 'start';
  const fail = (msg: string): never => {
    throw new StageBuildError(`cannot parse expression [${expr}]: ${msg}`);
  };
  for (;;) {
    const token = scanner.next();
    const k = token.kind;
    if (k === '$end' && state === 'values') break;
    if ((state === 'start' || state === 'dot') && token.kind === 'FIELD') {
      parts.push(token.text);
      state = 'values';
    } else if ((state === 'start' || state === 'values') && k === 'LSB') state = 'bracket';
    else if (state === 'values' && k === 'DOT') state = 'dot';
    else if (state === 'bracket' && token.kind === 'STRING') {
      parts.push(token.text);
      state = 'close';
    } else if (state === 'bracket' && token.kind === 'INDEX') {
      parts.push(token.index);
      state = 'close';
    } else if (state === 'close' && k === 'RSB') state = 'values';
    else fail(`syntax error: unexpected ${k}${EXPECTING[state]}`);
  }
  if (scanner.error !== null) fail(scanner.error);
  return parts;
}

/** Loki's `JSONPathToStrings`: array indexes become `[n]`. */
function pathStrings(parts: readonly JsonPathPart[]): string[] {
  return parts.map((part) => (typeof part === 'number' ? `[${part}]` : part));
}

export class JsonExpressionParserStage implements Stage {
  private readonly ids: string[];
  private readonly paths: string[][];

  constructor(params: readonly ExtractionParam[]) {
    if (params.length === 0) throw new StageBuildError('no json expression provided');
    this.paths = params.map((p) => pathStrings(parseJsonPath(p.expression)));
    this.ids = params.map((p) => {
      if (!isValidLabelName(p.identifier)) {
        throw new StageBuildError(`invalid extracted label name '${p.identifier}'`);
      }
      return p.identifier;
    });
  }

  process(_ts: bigint, line: Buffer, lbs: LabelsBuilder): Buffer {
    if (lbs.skipParsers()) return line;
    if (line.length === 0) return line;
    const first = line[0];
    if (first !== 0x22 && first !== 0x7b && first !== 0x5b) {
      lbs.setParserErr(ERR_JSON);
      return line;
    }
    eachKey(line, this.paths, (pi, value, error) => {
      if (value === null) {
        lbs.setParserErr(ERR_JSON, error ?? undefined);
        return;
      }
      lbs.set(LabelCategory.Parsed, lbs.extractedName(this.ids[pi]), valueText(line, value));
    });
    // Every label exists, if only empty.
    for (const name of this.ids) {
      if (lbs.get(name) === undefined) lbs.set(LabelCategory.Parsed, name, '');
    }
    return line;
  }
}

/** The label value Loki makes of a found value: objects verbatim, null empty, others unescaped. */
function valueText(b: Buffer, v: FoundValue): string {
  switch (v.type) {
    case JsonType.Null:
      return '';
    case JsonType.Object:
      return b.toString('utf8', v.start, v.end);
    default: {
      return lokiJsonString(b, v.start, v.end, true, hasHighBytes(b, v.start, v.end));
    }
  }
}

function hasHighBytes(b: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (b[i] >= 0x80) return true;
  return false;
}
