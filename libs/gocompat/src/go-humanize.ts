/** go-humanize's `ParseBytes`, which LogQL uses for byte literals, `bytes()` and unwrap. */
import { goParseFloat, GoSyntaxError } from './go-strconv';

const BYTE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1e3,
  kb: 1e3,
  ki: 1024,
  kib: 1024,
  m: 1e6,
  mb: 1e6,
  mi: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1e9,
  gb: 1e9,
  gi: 1024 ** 3,
  gib: 1024 ** 3,
  t: 1e12,
  tb: 1e12,
  ti: 1024 ** 4,
  tib: 1024 ** 4,
  p: 1e15,
  pb: 1e15,
  pi: 1024 ** 5,
  pib: 1024 ** 5,
  e: 1e18,
  eb: 1e18,
  ei: 1024 ** 6,
  eib: 1024 ** 6,
};

/**
 * `humanize.ParseBytes`: `42`, `42 MB`, `2.5KiB`, `1,000kB`; KB = 1000, KiB = 1024. Throws
 * GoSyntaxError with go-humanize's text.
 */
export function humanizeParseBytes(text: string): number {
  let end = 0;
  while (end < text.length && /[\p{Nd}.,]/u.test(text[end])) end++;
  const num = text.slice(0, end).replaceAll(',', '');
  const f = goParseFloat(num);
  if (f === undefined || Number.isNaN(f)) {
    throw new GoSyntaxError(`strconv.ParseFloat: parsing ${JSON.stringify(num)}: invalid syntax`);
  }
  const unit = text.slice(end).trim().toLowerCase();
  const scale = BYTE_UNITS[unit];
  if (scale === undefined) throw new GoSyntaxError(`unhandled size name: ${unit}`);
  const value = f * scale;
  if (value >= 2 ** 64) throw new GoSyntaxError(`too large: ${text}`);
  return Math.trunc(value);
}

const SI_SIZES = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'];

/** Go's `%.Nf` of a value: ties of the printed digit round to even, as `strconv` does. */
function goFixed(value: number, digits: 0 | 1): string {
  const scaled = value * 10 ** digits;
  const floor = Math.floor(scaled);
  const tie = scaled - floor === 0.5;
  if (!tie) return value.toFixed(digits);
  const even = floor % 2 === 0 ? floor : floor + 1;
  return (even / 10 ** digits).toFixed(digits);
}

/** `humanize.Bytes`: SI units of 1000, one decimal below 10 (`1.5 kB`, `20 MB`, `9 B`). */
export function humanizeBytes(bytes: number): string {
  if (bytes < 10) return `${bytes} B`;
  const e = Math.floor(Math.log(bytes) / Math.log(1000));
  const val = Math.floor((bytes / 1000 ** e) * 10 + 0.5) / 10;
  return `${goFixed(val, val < 10 ? 1 : 0)} ${SI_SIZES[e]}`;
}

const IEC_SIZES = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

/** `humanize.IBytes`: IEC units of 1024, one decimal below 10 (`1.5 KiB`, `20 MiB`, `9 B`). */
export function humanizeIBytes(bytes: number): string {
  if (bytes < 10) return `${bytes} B`;
  const e = Math.floor(Math.log(bytes) / Math.log(1024));
  const val = Math.floor((bytes / 1024 ** e) * 10 + 0.5) / 10;
  return `${goFixed(val, val < 10 ? 1 : 0)} ${IEC_SIZES[e]}`;
}
