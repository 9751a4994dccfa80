/**
 * Go's RFC 3339 time forms on epoch nanoseconds (bigint, UTC), as Loki parses and prints them
 * in parameters, push bodies and error messages.
 */
const NS_PER_SECOND = 1_000_000_000n;

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})([Tt ])(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * Go's `time.Parse(time.RFC3339Nano, text)` to epoch nanoseconds; undefined when invalid.
 * `allowSpace` also accepts a space between date and time (Loki's legacy JSON push does).
 */
export function parseRfc3339Nano(
  text: string,
  options: { allowSpace?: boolean } = {},
): bigint | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, sep, h, mi, s, frac, z, sign, oh, om] = m;
  if (sep === ' ' && !options.allowSpace) return undefined;
  const ms = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  const check = new Date(ms);
  // Date.UTC silently rolls over (Feb 30 -> Mar 2); refuse such dates.
  if (check.getUTCDate() !== +d || check.getUTCMonth() !== +mo - 1) return undefined;
  if (+h > 23 || +mi > 59 || +s > 59 || (oh !== undefined && (+oh > 23 || +om > 59))) {
    return undefined;
  }
  let ns = BigInt(ms) * 1_000_000n + BigInt((frac ?? '').padEnd(9, '0') || '0');
  if (!z) {
    const offsetNs = BigInt((+oh * 60 + +om) * 60) * NS_PER_SECOND;
    ns = sign === '+' ? ns - offsetNs : ns + offsetNs;
  }
  return ns;
}

function splitNs(ns: bigint): { iso: string; frac: bigint } {
  let seconds = ns / NS_PER_SECOND;
  let frac = ns % NS_PER_SECOND;
  if (frac < 0n) {
    frac += NS_PER_SECOND;
    seconds -= 1n;
  }
  return { iso: new Date(Number(seconds) * 1000).toISOString(), frac };
}

const fraction = (frac: bigint): string =>
  frac === 0n ? '' : '.' + frac.toString().padStart(9, '0').replace(/0+$/, '');

/** Go's `t.Format(time.RFC3339)` of a UTC time: whole seconds, `Z` suffix. */
export function formatRfc3339(ns: bigint): string {
  return splitNs(ns).iso.slice(0, 19) + 'Z';
}

/** Go's `t.Format(time.RFC3339Nano)` of a UTC time: the fraction without trailing zeros. */
export function formatRfc3339Nano(ns: bigint): string {
  const { iso, frac } = splitNs(ns);
  return `${iso.slice(0, 19)}${fraction(frac)}Z`;
}

/** Go's `t.String()` of a UTC time: `2006-01-02 15:04:05.999999999 +0000 UTC`. */
export function formatGoTime(ns: bigint): string {
  const { iso, frac } = splitNs(ns);
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction(frac)} +0000 UTC`;
}
