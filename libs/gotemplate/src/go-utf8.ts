/**
 * Decodes UTF-8 bytes the way Go's utf8.DecodeRune walks them: every byte that does not start
 * a complete, valid sequence becomes one U+FFFD. A Go string cut in the middle of a character
 * keeps its raw bytes, and Loki writes each of them as `\ufffd` when it encodes the line as JSON;
 * Node's decoder would instead replace a whole truncated sequence with a single U+FFFD.
 */
export function decodeUtf8AsGo(bytes: Uint8Array): string {
  const fast = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (!fast.includes('\uFFFD')) return fast;
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const n = validSequenceLength(bytes, i);
    if (n === 0) {
      out += '\uFFFD';
      i++;
    } else {
      out += Buffer.from(bytes.subarray(i, i + n)).toString('utf8');
      i += n;
    }
  }
  return out;
}

/** Length of the valid UTF-8 sequence at `i` (Go's accept ranges), or 0 if there is none. */
function validSequenceLength(b: Uint8Array, i: number): number {
  const b0 = b[i];
  if (b0 < 0x80) return 1;
  let n: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (b0 >= 0xc2 && b0 <= 0xdf) n = 2;
  else if (b0 >= 0xe0 && b0 <= 0xef) {
    n = 3;
    if (b0 === 0xe0) lo = 0xa0; // no overlong forms
    if (b0 === 0xed) hi = 0x9f; // no surrogates
  } else if (b0 >= 0xf0 && b0 <= 0xf4) {
    n = 4;
    if (b0 === 0xf0) lo = 0x90;
    if (b0 === 0xf4) hi = 0x8f; // nothing above U+10FFFF
  } else return 0;
  if (i + n > b.length) return 0;
  if (b[i + 1] < lo || b[i + 1] > hi) return 0;
  for (let k = 2; k < n; k++) if (b[i + k] < 0x80 || b[i + k] > 0xbf) return 0;
  return n;
}
