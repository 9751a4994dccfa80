const VALID_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const INVALID_CHAR = /[^a-zA-Z0-9_]/gu;

/**
 * Prometheus's OTLP `NormalizeLabel`, which Loki applies to OTLP attribute names and pushed
 * structured metadata names: every character outside `[a-zA-Z0-9_]` becomes `_`, a leading
 * digit gets a `key_` prefix, and a single leading `_` becomes `key_`.
 */
export function normalizeLabelName(name: string): string {
  if (name.length === 0) return name;
  if (VALID_NAME.test(name) && (name[0] !== '_' || name[1] === '_')) return name;
  const out = name.replace(INVALID_CHAR, '_');
  const c = out.charCodeAt(0);
  if (c >= 0x30 && c <= 0x39) return 'key_' + out;
  if (out[0] === '_' && out[1] !== '_') return 'key' + out;
  return out;
}
