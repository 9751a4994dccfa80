import { parseGoFloat } from './literals';
import { FuncError } from './values';

const UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1000n,
  µs: 1000n,
  μs: 1000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

/** Go's time.ParseDuration, returned as Duration.Seconds(). */
export function parseDuration(orig: string): number {
  const bad = (): never => {
    throw new FuncError(`time: invalid duration "${orig}"`);
  };
  let s = orig;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') bad();
  let total = 0n;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    if (m[0] === '' || m[0] === '.' || (m[1] === '' && (m[2] ?? '') === '')) bad();
    s = s.slice(m[0].length);
    const u = /^[^\d.]*/.exec(s)![0];
    if (u === '') throw new FuncError(`time: missing unit in duration "${orig}"`);
    const unit = UNITS[u];
    if (unit === undefined) throw new FuncError(`time: unknown unit "${u}" in duration "${orig}"`);
    s = s.slice(u.length);
    const frac = m[2] ?? '';
    let v = BigInt(m[1] || '0') * unit;
    if (frac !== '') v += (BigInt(frac) * unit) / 10n ** BigInt(frac.length);
    total += v;
    if (total >= 1n << 63n) bad();
  }
  if (neg) total = -total;
  const sec = total / 1_000_000_000n;
  const nsec = total % 1_000_000_000n;
  return Number(sec) + Number(nsec) / 1e9;
}

const SIZES: Record<string, number> = {
  '': 1,
  b: 1,
  kib: 1024,
  ki: 1024,
  kb: 1000,
  k: 1000,
  mib: 1024 ** 2,
  mi: 1024 ** 2,
  mb: 1000 ** 2,
  m: 1000 ** 2,
  gib: 1024 ** 3,
  gi: 1024 ** 3,
  gb: 1000 ** 3,
  g: 1000 ** 3,
  tib: 1024 ** 4,
  ti: 1024 ** 4,
  tb: 1000 ** 4,
  t: 1000 ** 4,
  pib: 1024 ** 5,
  pi: 1024 ** 5,
  pb: 1000 ** 5,
  p: 1000 ** 5,
  eib: 1024 ** 6,
  ei: 1024 ** 6,
  eb: 1000 ** 6,
  e: 1000 ** 6,
};

/** go-humanize ParseBytes, as a float64 (Loki's `bytes`). */
export function parseBytes(s: string): number {
  let last = 0;
  let hasComma = false;
  for (const ch of s) {
    if (!(/\p{Nd}/u.test(ch) || ch === '.' || ch === ',')) break;
    if (ch === ',') hasComma = true;
    last += ch.length;
  }
  let numText = s.slice(0, last);
  if (hasComma) numText = numText.replace(/,/g, '');
  const f = parseGoFloat(numText);
  if (f === undefined)
    throw new FuncError(`strconv.ParseFloat: parsing "${numText}": invalid syntax`);
  const extra = s.slice(last).trim().toLowerCase();
  const m = SIZES[extra];
  if (m === undefined) throw new FuncError(`unhandled size name: ${extra}`);
  const v = f * m;
  if (v >= 2 ** 64) throw new FuncError(`too large: ${s}`);
  return Math.trunc(v);
}
