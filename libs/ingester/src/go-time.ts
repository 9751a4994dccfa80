const NS_PER_SECOND = 1_000_000_000n;

function splitNs(ns: bigint): { iso: string; frac: bigint } {
  let seconds = ns / NS_PER_SECOND;
  let frac = ns % NS_PER_SECOND;
  if (frac < 0n) {
    frac += NS_PER_SECOND;
    seconds -= 1n;
  }
  return { iso: new Date(Number(seconds) * 1000).toISOString(), frac };
}

/** Go's `t.Format(time.RFC3339)` of a UTC time: whole seconds, `Z` suffix. */
export function formatRfc3339(ns: bigint): string {
  return splitNs(ns).iso.slice(0, 19) + 'Z';
}

/** Go's `t.String()` of a UTC time: `2006-01-02 15:04:05.999999999 +0000 UTC`. */
export function formatGoTime(ns: bigint): string {
  const { iso, frac } = splitNs(ns);
  let out = iso.slice(0, 10) + ' ' + iso.slice(11, 19);
  if (frac > 0n) out += '.' + frac.toString().padStart(9, '0').replace(/0+$/, '');
  return out + ' +0000 UTC';
}
