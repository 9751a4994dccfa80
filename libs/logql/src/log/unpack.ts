/**
 * `| unpack`: the line is a JSON object (as Promtail's `pack` stage writes); its top-level
 * string values become labels and `_entry` replaces the line. As in Loki, a line without
 * `_entry` is left unchanged and gets no labels.
 */
import { ERR_JSON } from './errors';
import {
  eachMember,
  JsonScanError,
  JsonType,
  lokiJsonString,
  newJsonValue,
  stringValue,
} from './json-scanner';
import { LabelCategory, type LabelsBuilder } from './labels-builder';
import type { Stage } from './pipeline';
import { sanitizeLabelKey } from './sanitize';

const ENTRY_KEY = '_entry';
const NOT_AN_OBJECT = 'expecting json object(6), but it is not';

export class UnpackParserStage implements Stage {
  private readonly value = newJsonValue();
  private readonly names: string[] = [];
  private readonly values: string[] = [];

  process(_ts: bigint, line: Buffer, lbs: LabelsBuilder): Buffer {
    // With nothing to extract Loki skips unpack entirely: the line keeps its packed form.
    if (line.length === 0 || lbs.skipParsers()) return line;
    const first = firstNonSpace(line);
    if (first !== 0x7b) {
      lbs.setParserErr(ERR_JSON, NOT_AN_OBJECT);
      return line;
    }
    this.names.length = 0;
    this.values.length = 0;
    let entry: Buffer | null = null;
    try {
      eachMember(
        line,
        0,
        line.length,
        (b, ks, ke, decoded, v) => {
          if (v.type !== JsonType.String) return;
          const key = decoded ?? b.toString('utf8', ks, ke);
          if (key === ENTRY_KEY) {
            entry = v.escaped ? Buffer.from(stringValue(b, v) ?? '') : b.subarray(v.start, v.end);
            return;
          }
          const name = sanitizeLabelKey(key, true);
          if (name === '') return;
          this.names.push(name);
          this.values.push(lokiJsonString(b, v.start, v.end, v.escaped, v.high));
        },
        this.value,
      );
    } catch (err) {
      if (!(err instanceof JsonScanError)) throw err;
      lbs.setParserErr(ERR_JSON, err.message);
      return line;
    }
    if (entry === null) return line;
    for (let i = 0; i < this.names.length; i++) {
      const name = lbs.extractedName(this.names[i]);
      if (!lbs.wants(name) || !lbs.shouldExtract(name)) continue;
      lbs.set(LabelCategory.Parsed, name, this.values[i]);
    }
    return Buffer.from(entry);
  }
}

function firstNonSpace(b: Buffer): number {
  for (const c of b) if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return c;
  return -1;
}
