import * as template from '@logsvc/gotemplate';

type Value = template.Value;

/** YAML/JSON data as template values: maps become Go maps, whole numbers Go ints. */
export function toValue(data: unknown): Value {
  if (data === null || data === undefined) return null;
  if (Array.isArray(data)) return data.map(toValue);
  if (typeof data === 'number') return Number.isInteger(data) ? BigInt(data) : data;
  if (typeof data === 'string' || typeof data === 'boolean') return data;
  if (typeof data === 'object') {
    const out = new Map<string, Value>();
    for (const [k, v] of Object.entries(data as Record<string, unknown>)) out.set(k, toValue(v));
    return out;
  }
  throw new Error(`cannot use ${typeof data} as a template value`);
}

/** Template values back to plain data (for toYaml). */
export function fromValue(value: Value): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(fromValue);
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) out[k] = fromValue(v);
    return out;
  }
  if (value instanceof template.LabelMap) return { ...value.data };
  if (typeof value === 'object') return String(template.formatValue(value));
  return value;
}

/** Deep merge of values files: maps merge, anything else is replaced (Helm's coalesce). */
export function mergeValues(base: unknown, override: unknown): unknown {
  const isMap = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isMap(base) || !isMap(override)) return override === undefined ? base : override;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(override)) out[k] = mergeValues(base[k], v);
  return out;
}
