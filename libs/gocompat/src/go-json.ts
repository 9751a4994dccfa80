/**
 * Go's `encoding/json.Marshal` text for the values Loki encodes: JSON as `JSON.stringify` writes
 * it, plus Go's HTML-safe escaping of `<`, `>`, `&`, U+2028 and U+2029 (jsoniter's writer does
 * the same), which Loki's stream lines and metric responses go through.
 */
const HTML_UNSAFE = /[<>&\u2028\u2029]/g;
const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** `json.Marshal(value)` for plain JSON values (no NaN or Inf), with Go's HTML-safe escaping. */
export function jsonMarshal(value: unknown): string {
  return JSON.stringify(value).replace(HTML_UNSAFE, (c) => ESCAPES[c]);
}

/** `json.Marshal(s)` of a string: a JSON string literal with Go's HTML-safe escaping. */
export function jsonMarshalString(s: string): string {
  return jsonMarshal(s);
}
