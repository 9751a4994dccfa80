/** Characters Go's `mime` package does not allow in a token (RFC 2045 tspecials). */
const TSPECIALS = new Set('()<>@,;:\\"/[]?=');

function isTokenChar(code: number): boolean {
  return code > 0x20 && code < 0x7f && !TSPECIALS.has(String.fromCharCode(code));
}

function tokenEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && isTokenChar(text.charCodeAt(i))) i++;
  return i;
}

/**
 * The media type of a Content-Type header, lower-cased and without parameters, checked the way
 * Go's `mime.ParseMediaType` checks it (Loki parses push Content-Types with it); a string with
 * Go's error text, prefixed by `mime: `, when it is not a media type at all.
 */
export function parseMediaType(header: string): { type: string } | { error: string } {
  const base = header.split(';')[0].trim().toLowerCase();
  const slash = tokenEnd(base, 0);
  if (slash === 0) return { error: 'mime: no media type' };
  if (slash === base.length) return { type: base };
  if (base[slash] !== '/') return { error: 'mime: expected slash after first token' };
  const end = tokenEnd(base, slash + 1);
  if (end === slash + 1) return { error: 'mime: expected token after slash' };
  if (end !== base.length) return { error: 'mime: unexpected content after media subtype' };
  return { type: base };
}
