const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** Parses an RFC 3339 timestamp with up to nanosecond precision into epoch nanoseconds. */
export function parseRfc3339Nano(text: string): bigint | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, z, sign, oh, om] = m;
  const ms = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  const check = new Date(ms);
  // Date.UTC silently rolls over (Feb 30 -> Mar 2); refuse such dates.
  if (
    check.getUTCDate() !== +d ||
    check.getUTCMonth() !== +mo - 1 ||
    +h > 23 ||
    +mi > 59 ||
    +s > 59
  ) {
    return undefined;
  }
  let ns = BigInt(ms) * 1_000_000n + BigInt((frac ?? '').padEnd(9, '0') || '0');
  if (!z) {
    const offsetNs = BigInt((+oh * 60 + +om) * 60) * 1_000_000_000n;
    ns = sign === '+' ? ns - offsetNs : ns + offsetNs;
  }
  return ns;
}

/** Formats epoch nanoseconds as Go's time.RFC3339 (seconds precision, UTC `Z`). */
export function formatRfc3339(ns: bigint): string {
  const ms = Number(ns / 1_000_000n) - (ns % 1_000_000n < 0n ? 1 : 0);
  const d = new Date(Math.floor(ms / 1000) * 1000);
  if (Number.isNaN(d.getTime())) return ns.toString();
  return d.toISOString().replace('.000Z', 'Z');
}
