import type { LabelPair } from '@logsvc/api';
import { jsonMarshalString as goJsonString } from '@logsvc/gocompat';
import { normalizeLabelName } from './normalize-label';
import type { OtlpAnyValue } from './otlp-schema';

/** ES6 number formatting, which OTel's pdata also uses for doubles. */
function doubleAsString(n: number): string {
  if (Number.isNaN(n)) return 'json: unsupported value: NaN';
  if (!Number.isFinite(n)) return `json: unsupported value: ${n > 0 ? '+Inf' : '-Inf'}`;
  return Object.is(n, -0) ? '-0' : String(n);
}

/** The value as Go's json.Marshal prints pdata's `AsRaw()` (keys sorted, bytes base64). */
function goJson(v: OtlpAnyValue): string {
  switch (v.kind) {
    case 'string':
      return goJsonString(v.value);
    case 'bool':
      return v.value ? 'true' : 'false';
    case 'int':
      return v.value.toString();
    case 'double':
      return Number.isFinite(v.value) ? String(v.value) : 'null';
    case 'bytes':
      return goJsonString(Buffer.from(v.value).toString('base64'));
    case 'array':
      return '[' + v.value.map(goJson).join(',') + ']';
    case 'kvlist': {
      const byKey = new Map<string, OtlpAnyValue>();
      for (const kv of v.value) byKey.set(kv.key, kv.value);
      const keys = [...byKey.keys()].sort();
      return '{' + keys.map((k) => goJsonString(k) + ':' + goJson(byKey.get(k)!)).join(',') + '}';
    }
    case 'empty':
      return 'null';
  }
}

/** pdata `Value.AsString()`: how Loki turns OTLP bodies and attribute values into strings. */
export function anyValueAsString(v: OtlpAnyValue): string {
  switch (v.kind) {
    case 'string':
      return v.value;
    case 'bool':
      return v.value ? 'true' : 'false';
    case 'int':
      return v.value.toString();
    case 'double':
      return doubleAsString(v.value);
    case 'bytes':
      return Buffer.from(v.value).toString('base64');
    case 'array':
    case 'kvlist':
      return goJson(v);
    case 'empty':
      return '';
  }
}

/**
 * Loki's `attributeToLabels`: the normalized key with the value as a string; map values are
 * flattened recursively, joining keys with `_`.
 */
export function attributeToLabels(
  key: string,
  value: OtlpAnyValue,
  prefix: string,
  out: LabelPair[],
): void {
  const name = normalizeLabelName(prefix === '' ? key : prefix + '_' + key);
  if (value.kind === 'kvlist') {
    for (const kv of value.value) attributeToLabels(kv.key, kv.value, name, out);
  } else {
    out.push({ name, value: anyValueAsString(value) });
  }
}
