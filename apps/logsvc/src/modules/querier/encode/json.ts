/**
 * JSON text the way Loki's encoders write it. Go's `encoding/json` (and jsoniter's
 * HTML-escaping writer) escape `<`, `>`, `&`, U+2028 and U+2029; Loki's stream lines and every
 * metric response go through them.
 */
const HTML_UNSAFE = /[<>&\u2028\u2029]/g;
const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** `JSON.stringify` with Go's HTML-safe escaping. */
export function goJson(value: unknown): string {
  return JSON.stringify(value).replace(HTML_UNSAFE, (c) => ESCAPES[c]);
}

/** A JSON string literal with Go's HTML-safe escaping. */
export function goJsonString(s: string): string {
  return goJson(s);
}

export const JSON_CONTENT_TYPE = 'application/json; charset=UTF-8';
