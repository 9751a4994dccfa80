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

/** Parses a jsonexpr path such as `my.list[0]["field"]`. */
export function parseJsonPath(expr: string): JsonPathPart[] {
  const parts: JsonPathPart[] = [];
  let i = 0;
  const fail = (msg: string): never => {
    throw new StageBuildError(`cannot parse expression [${expr}]: ${msg}`);
  };
  const isFieldChar = (c: string): boolean => /[\p{L}\p{N}_\-$@]/u.test(c);
  let expectField = true;
  while (i < expr.length) {
    const c = expr[i];
    if (c === ' ' || c === '\t') {
      i++;
    } else if (c === '.') {
      if (parts.length === 0 && i !== 0) fail('syntax error: unexpected DOT');
      if (expectField && parts.length > 0) fail('syntax error: unexpected DOT');
      expectField = true;
      i++;
    } else if (c === '[') {
      const close = expr.indexOf(']', i);
      if (close < 0) fail('syntax error: unexpected $end, expecting RSB');
      const inner = expr.slice(i + 1, close).trim();
      if (/^[0-9]+$/.test(inner)) parts.push(Number(inner));
      else if (/^"(?:[^"\\]|\\.)*"$/.test(inner)) parts.push(JSON.parse(inner) as string);
      else fail(`syntax error: unexpected ${inner === '' ? 'RSB' : JSON.stringify(inner)}`);
      i = close + 1;
      expectField = false;
    } else if (isFieldChar(c)) {
      if (!expectField) fail(`syntax error: unexpected FIELD`);
      let j = i;
      while (j < expr.length && isFieldChar(expr[j])) j++;
      parts.push(expr.slice(i, j));
      i = j;
      expectField = false;
    } else {
      fail(`unexpected char ${c}`);
    }
  }
  if (parts.length === 0 || expectField) fail('syntax error: unexpected $end');
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
