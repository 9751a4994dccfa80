import { LONG_DAYS, LONG_MONTHS } from './go-time';
import { SizedInt } from './values';

const SECOND = 1_000_000_000n;

/** The digits of `u / 10^prec`'s remainder as Go's fmtFrac writes them: no trailing zeros. */
function frac(u: bigint, prec: number): [string, bigint] {
  const p = 10n ** BigInt(prec);
  const f = u % p;
  if (f === 0n) return ['', u / p];
  return ['.' + f.toString().padStart(prec, '0').replace(/0+$/, ''), u / p];
}

/** Go's time.Duration.String: `1h2m3.5s`, `1.5ms`, `0s`. */
export function formatDuration(d: bigint): string {
  const neg = d < 0n;
  let u = neg ? -d : d;
  let out: string;
  if (u < SECOND) {
    if (u === 0n) return '0s';
    let unit: string;
    let prec: number;
    if (u < 1000n) [unit, prec] = ['ns', 0];
    else if (u < 1_000_000n) [unit, prec] = ['µs', 3];
    else [unit, prec] = ['ms', 6];
    const [f, whole] = frac(u, prec);
    out = whole.toString() + f + unit;
  } else {
    const [f, secs] = frac(u, 9);
    u = secs;
    out = (u % 60n).toString() + f + 's';
    u /= 60n;
    if (u > 0n) {
      out = (u % 60n).toString() + 'm' + out;
      u /= 60n;
      if (u > 0n) out = u.toString() + 'h' + out;
    }
  }
  return neg ? '-' + out : out;
}

/** The String() of Go's named time integers, or undefined for plain integers. */
export function namedIntString(v: SizedInt): string | undefined {
  switch (v.type) {
    case 'time.Duration':
      return formatDuration(v.v);
    case 'time.Month':
      return v.v >= 1n && v.v <= 12n ? LONG_MONTHS[Number(v.v) - 1] : `%!Month(${v.v})`;
    case 'time.Weekday':
      return v.v >= 0n && v.v <= 6n ? LONG_DAYS[Number(v.v)] : `%!Weekday(${v.v})`;
  }
  return undefined;
}
