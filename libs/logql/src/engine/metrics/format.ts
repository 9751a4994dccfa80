/**
 * Formats a sample value as Go's `strconv.FormatFloat(v, 'f', -1, 64)`: the shortest decimal
 * that reads back to the same float, never in exponent form; `NaN`, `+Inf`, `-Inf`.
 */
export function formatSampleValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (Object.is(v, -0)) return '-0';
  const s = String(v);
  if (!s.includes('e')) return s;
  return expandExponent(s);
}

/** `1.5e-7` → `0.00000015`, `1e+21` → `1000000000000000000000` (JS shortest digits). */
function expandExponent(s: string): string {
  const negative = s.startsWith('-');
  const body = negative ? s.slice(1) : s;
  const [mantissa, expText] = body.split('e');
  const exp = Number(expText);
  const dot = mantissa.indexOf('.');
  const digits = mantissa.replace('.', '');
  const intLen = (dot === -1 ? mantissa.length : dot) + exp;
  let out: string;
  if (intLen <= 0) out = '0.' + '0'.repeat(-intLen) + digits;
  else if (intLen >= digits.length) out = digits + '0'.repeat(intLen - digits.length);
  else out = digits.slice(0, intLen) + '.' + digits.slice(intLen);
  return negative ? '-' + out : out;
}

/** Go's formatting of a millisecond timestamp as seconds (`1588889221.5`). */
export function formatTimestampSeconds(ms: number): string {
  return formatSampleValue(ms / 1000);
}
