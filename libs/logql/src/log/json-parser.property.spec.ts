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
import { jsonishLine as line } from '../testing/json-lines';

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
