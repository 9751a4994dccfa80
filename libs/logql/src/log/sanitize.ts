/** Label-name sanitizing of extracted keys, as Loki's `pkg/logql/log/util.go`. */

const INVALID = /[^a-zA-Z0-9_]/gu;

/**
 * Trims spaces, replaces every character outside `[a-zA-Z0-9_]` by `_` and, when `isPrefix`,
 * puts `_` in front of a leading digit.
 */
export function sanitizeLabelKey(key: string, isPrefix: boolean): string {
  const k = key.trim();
  if (k.length === 0) return k;
  const mapped = k.replace(INVALID, '_');
  if (isPrefix && k.charCodeAt(0) >= 0x30 && k.charCodeAt(0) <= 0x39) return '_' + mapped;
  return mapped;
}
