/**
 * `| json a="b.c", d="e[0]", f`: extracts the values at given paths (Loki's jsonexpr syntax:
 * `field`, `.field`, `["key"]`, `[0]` in any combination). Strings are unescaped, objects and
 * arrays give their raw JSON text, null gives `""`, and a missing path still creates the
 * label with `""`. A line that does not start with `"`, `{` or `[` sets `JSONParserErr`.
 */
import { ERR_JSON, StageBuildError } from './errors';
import {
  JsonScanError,
  JsonType,
  eachElement,
  eachMember,
  newJsonValue,
  unescapeJson,
  type JsonValue,
} from './json-scanner';
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

interface PathNode {
  readonly keys: Map<string, PathNode>;
  readonly indexes: Map<number, PathNode>;
  /** Positions in the parameter list of the labels whose path ends here. */
  readonly ids: number[];
}

const newNode = (): PathNode => ({ keys: new Map(), indexes: new Map(), ids: [] });

export class JsonExpressionParserStage implements Stage {
  private readonly ids: string[];
  private readonly root = newNode();
  private readonly found: (string | null)[];
  private readonly values: JsonValue[] = [];

  constructor(params: readonly ExtractionParam[]) {
    if (params.length === 0) throw new StageBuildError('no json expression provided');
    this.ids = params.map((p) => {
      if (!isValidLabelName(p.identifier)) {
        throw new StageBuildError(`invalid extracted label name '${p.identifier}'`);
      }
      return p.identifier;
    });
    params.forEach((p, idx) => {
      let node = this.root;
      for (const part of parseJsonPath(p.expression)) {
        const map = (typeof part === 'number' ? node.indexes : node.keys) as Map<
          JsonPathPart,
          PathNode
        >;
        let next = map.get(part);
        if (next === undefined) {
          next = newNode();
          map.set(part, next);
        }
        node = next;
      }
      node.ids.push(idx);
    });
    this.found = new Array<string | null>(params.length).fill(null);
  }

  process(_ts: bigint, line: Buffer, lbs: LabelsBuilder): Buffer {
    if (line.length === 0) return line;
    const first = line[0];
    if (first !== 0x22 && first !== 0x7b && first !== 0x5b) {
      lbs.setParserErr(ERR_JSON);
      return line;
    }
    this.found.fill(null);
    try {
      this.visit(
        line,
        0,
        line.length,
        first === 0x7b ? JsonType.Object : first === 0x5b ? JsonType.Array : JsonType.String,
        this.root,
        0,
      );
    } catch (err) {
      if (!(err instanceof JsonScanError)) throw err;
      lbs.setParserErr(ERR_JSON);
    }
    for (let i = 0; i < this.ids.length; i++) {
      let name = this.ids[i];
      const value = this.found[i];
      if (value === null) {
        if (lbs.get(name) === undefined) lbs.set(LabelCategory.Parsed, name, '');
        continue;
      }
      name = lbs.extractedName(name);
      lbs.set(LabelCategory.Parsed, name, value);
    }
    return line;
  }

  private scratch(depth: number): JsonValue {
    while (this.values.length <= depth) this.values.push(newJsonValue());
    return this.values[depth];
  }

  private visit(
    b: Buffer,
    start: number,
    end: number,
    type: JsonType,
    node: PathNode,
    depth: number,
  ): void {
    if (type === JsonType.Object && node.keys.size > 0) {
      eachMember(
        b,
        start,
        end,
        (buf, ks, ke, decoded, v) => {
          const key = decoded ?? buf.toString('utf8', ks, ke);
          const child = node.keys.get(key);
          if (child !== undefined) this.take(buf, v, child, depth);
        },
        this.scratch(depth),
      );
    } else if (type === JsonType.Array && node.indexes.size > 0) {
      eachElement(
        b,
        start,
        end,
        (index, v) => {
          const child = node.indexes.get(index);
          if (child !== undefined) this.take(b, v, child, depth);
        },
        this.scratch(depth),
      );
    }
  }

  private take(b: Buffer, v: JsonValue, node: PathNode, depth: number): void {
    if (node.ids.length > 0) {
      const value = valueText(b, v);
      for (const id of node.ids) this.found[id] = value;
    }
    if (v.type === JsonType.Object || v.type === JsonType.Array) {
      const { start, end, type } = v;
      this.visit(b, start, end, type, node, depth + 1);
    }
  }
}

function valueText(b: Buffer, v: JsonValue): string {
  switch (v.type) {
    case JsonType.String: {
      const s = v.escaped ? unescapeJson(b, v.start, v.end) : b.toString('utf8', v.start, v.end);
      return s === null || (v.high && s.includes('\ufffd')) ? '' : s;
    }
    case JsonType.Null:
      return '';
    default:
      return b.toString('utf8', v.start, v.end);
  }
}
