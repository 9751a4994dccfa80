/**
 * `| json` walks lines with `JsonMembers` (no exceptions, values read only as far as their
 * end). On random lines, well-formed, damaged or not JSON at all, it gives what the walk over
 * `eachMember` (jsonparser's `ObjectEach`, which it replaced) gives: the same labels, the same
 * `__error__` / `__error_details__`, with and without parser hints.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelsToRecord, parseLabels } from '@logsvc/api';
import { ERR_JSON } from './errors';
import { JsonParserStage, MAX_JSON_DEPTH } from './json-parser';
import {
  JsonScanError,
  JsonType,
  bytesToString,
  eachMember,
  lokiJsonString,
  newJsonValue,
  type JsonValue,
} from './json-scanner';
import { LabelCategory, type LabelsBuilder } from './labels-builder';
import { NO_PARSER_HINTS, newParserHints, type ParserHints } from './parser-hints';
import { StreamPipeline, type Stage } from './pipeline';
import { sanitizeLabelKey } from './sanitize';

/** The stage as it was over `eachMember` (no key cache): the reference. */
class ReferenceJsonStage implements Stage {
  private readonly value = newJsonValue();
  private done = false;

  process(_ts: bigint, line: Buffer, lbs: LabelsBuilder): Buffer {
    if (lbs.skipParsers()) return line;
    this.done = false;
    try {
      this.walk(lbs, line, 0, line.length, '', 0);
    } catch (err) {
      if (!(err instanceof JsonScanError)) throw err;
      lbs.setParserErr(ERR_JSON, err.message);
    }
    return line;
  }

  private walk(
    lbs: LabelsBuilder,
    b: Buffer,
    start: number,
    end: number,
    prefix: string,
    depth: number,
  ): void {
    eachMember(
      b,
      start,
      end,
      (buf, ks, ke, decoded, v) => {
        if (v.type === JsonType.Array || v.type === JsonType.Null) return true;
        const key = decoded ?? buf.toString('utf8', ks, ke);
        const path = prefix === '' ? sanitizeLabelKey(key, true) : appendSanitized(prefix, key);
        if (v.type === JsonType.Object) {
          if (depth + 1 < MAX_JSON_DEPTH && descends(lbs.hints, path)) {
            this.walk(lbs, buf, v.start, v.end, path, depth + 1);
          }
          return !this.stop(lbs);
        }
        if (path.length === 0) return true;
        const name = lbs.extractedName(path);
        if (!lbs.wants(name) || !lbs.shouldExtract(name)) return true;
        const value = leaf(buf, v);
        if (value !== null) lbs.set(LabelCategory.Parsed, name, value);
        return !this.stop(lbs);
      },
      this.value,
    );
  }

  private stop(lbs: LabelsBuilder): boolean {
    if (!this.done && lbs.allRequiredExtracted()) this.done = true;
    return this.done;
  }
}

/** A nested key's path: an empty key (after trimming) leaves `<prefix>_`, as in Loki. */
function appendSanitized(prefix: string, key: string): string {
  const k = key.trim();
  if (k.length === 0) return prefix + '_';
  return prefix + '_' + k.replace(/[^a-zA-Z0-9_]/gu, '_');
}

function descends(hints: ParserHints, path: string): boolean {
  return hints.required === null || path === '' || hints.wantsPrefix(path + '_');
}

function leaf(b: Buffer, v: JsonValue): string | null {
  switch (v.type) {
    case JsonType.String:
      return lokiJsonString(b, v.start, v.end, v.escaped, v.high);
    case JsonType.Number:
      return bytesToString(b, v.start, v.end, false);
    case JsonType.Boolean:
      return b[v.start] === 0x74 ? 'true' : 'false';
    default:
      return null;
  }
}

const KEYS = ['level', 'lvl', 'latency_ms', 'a', 'b', 'app', '1x', 'k-y', 'é', ' level ', ''];
const key = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...KEYS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
);
/** Every JSON number form, and bare tokens jsonparser reads as numbers or refuses. */
const number = fc.oneof(
  fc.constantFrom('0', '-0', '12', '-7', '1.5', '1e10', '2E-3', '-0.5e+2', '500', '501.25'),
  fc.constantFrom('01', '1.', '-', '1e', '--1', '1é', '0x10'),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
);
const text = fc.oneof(
  fc.constantFrom('info', 'error', 'x y', '', 'é', '\ufffd', '😀'),
  fc.string({ maxLength: 6, unit: 'binary' }),
);
/** String bodies as written in the line: plain, with escapes, or with bad escapes. */
const stringBody = fc.oneof(
  { weight: 4, arbitrary: text.map((s) => JSON.stringify(s).slice(1, -1)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '\\u00e9',
      '\\ud83d\\ude00',
      '\\ud800',
      '\\x',
      '\\u12',
      'a\\"b',
      '\\\\',
    ),
  },
);
const scalar = fc.oneof(
  stringBody.map((s) => `"${s}"`),
  number,
  fc.constantFrom('true', 'false', 'null', 'tru', 'nul', '[1,"]",{}]', '[', '"open'),
);
const member = (value: fc.Arbitrary<string>) =>
  fc
    .tuple(key, stringBody, value, fc.boolean(), fc.constantFrom('', ' ', '\n', '\t'))
    .map(([k, raw, v, escapedKey, ws]) => {
      const name = escapedKey ? raw : JSON.stringify(k).slice(1, -1);
      return `${ws}"${name}"${ws}:${ws}${v}${ws}`;
    });
const object = fc.letrec<{ value: string; object: string }>((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, scalar, tie('object')),
  object: fc.array(member(tie('value')), { maxLength: 6 }).map((ms) => `{${ms.join(',')}}`),
})).object;
/** Objects, then damage: a cut, a stray byte, a trailing comma, trailing text. */
const jsonLine = fc
  .tuple(object, fc.nat(), fc.constantFrom('', 'cut', 'insert', 'comma', 'trailing'), fc.string())
  .map(([o, at, damage, extra]) => {
    const p = o.length === 0 ? 0 : at % o.length;
    switch (damage) {
      case 'cut':
        return o.slice(0, p);
      case 'insert':
        return o.slice(0, p) + (extra === '' ? ':' : extra[0]) + o.slice(p);
      case 'comma':
        return o.replace(/}$/, ',}');
      case 'trailing':
        return o + extra;
      default:
        return o;
    }
  });
const line = fc.oneof(
  { weight: 6, arbitrary: jsonLine.map((l) => Buffer.from(l)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 60 }).map((a) => Buffer.from(a)) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('level=info a=1', '', '   ', '10.0.0.1 - - "GET /"')
      .map((t) => Buffer.from(t)),
  },
);

const hintSets = fc.constantFrom<string[] | null>(
  null,
  ['level'],
  ['level', 'latency_ms'],
  ['_1x', 'app_extracted'],
  ['a_b', 'k_y'],
  ['__error__', 'level'],
);

function extract(stage: Stage, required: string[] | null, l: Buffer): Record<string, string> {
  const sp = new StreamPipeline(parseLabels('{app="web"}'), [stage]);
  sp.builder.hints =
    required === null
      ? NO_PARSER_HINTS
      : newParserHints({
          stageLabels: [],
          groups: required,
          without: false,
          noLabels: false,
          preserveError: false,
        });
  return labelsToRecord(sp.process(0n, l)!.labels.labels);
}

describe('| json over JsonMembers', () => {
  it('gives the labels and errors of the eachMember walk, with or without hints', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 4 }), hintSets, (lines, required) => {
        // One stage over several lines: its key cache must not carry one line into the next.
        const stage = new JsonParserStage();
        for (const l of lines) {
          expect(extract(stage, required, l)).toEqual(
            extract(new ReferenceJsonStage(), required, l),
          );
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees on hand-picked edge cases', () => {
    const cases = [
      '{"a":"1","a":"2"}',
      '{"level":"info","latency_ms":501,"level":"x"}',
      '{"a":{"b":{"c":1}},"a_b_c":2}',
      '{"a":1 "b":2}',
      '{"a":1,,"b":2}',
      '{"a":"x\\"}',
      '{"a\\u0062":"\\ud83d\\ude00"}',
      '{"a":tru}',
      '{"a":nul,"b":1}',
      '{"n":-}',
      '{"n":1e5x}',
      '{"a":"\\q"}',
      '{"\\q":1}',
      '{"a":[1,2',
      '{"a":{"b":1',
      '{"a":{}}',
      '  {"a" : "b" }  trailing',
      '{"a":"b"}{"c":"d"}',
      '{',
      '{"',
      '{"a"',
      '{"a":',
      '{"a":1',
      '{"a":1,',
      '\t\n{"a":1}',
      '{"latency_ms":"abc","level":"é"}',
    ];
    for (const required of [null, ['level'], ['level', 'latency_ms'], ['a', 'b']]) {
      for (const c of cases) {
        const l = Buffer.from(c);
        expect(extract(new JsonParserStage(), required, l), c).toEqual(
          extract(new ReferenceJsonStage(), required, l),
        );
      }
    }
  });
});
