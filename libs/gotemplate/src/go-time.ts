import { LOCAL, UTC, type Zone } from './go-zone';

/** A Go time.Time: an instant (seconds + nanoseconds since the Unix epoch) in a zone. */
export class GoTime {
  constructor(
    readonly unixSec: number,
    readonly nsec: number,
    readonly zone: Zone,
  ) {}

  static fromUnixNanos(ns: bigint, zone: Zone = LOCAL): GoTime {
    let sec = ns / 1_000_000_000n;
    let nsec = ns % 1_000_000_000n;
    if (nsec < 0n) {
      nsec += 1_000_000_000n;
      sec -= 1n;
    }
    return new GoTime(Number(sec), Number(nsec), zone);
  }

  /** Go's zero time.Time: January 1, year 1, 00:00:00 UTC. */
  static readonly ZERO = new GoTime(-62135596800, 0, UTC);

  unixNanos(): bigint {
    return BigInt(this.unixSec) * 1_000_000_000n + BigInt(this.nsec);
  }

  unixMillis(): bigint {
    return BigInt(this.unixSec) * 1000n + BigInt(Math.floor(this.nsec / 1e6));
  }

  in(zone: Zone): GoTime {
    return new GoTime(this.unixSec, this.nsec, zone);
  }

  /** Go's Time.String(): `2006-01-02 15:04:05.999999999 -0700 MST`. */
  toString(): string {
    return formatTime(this, '2006-01-02 15:04:05.999999999 -0700 MST');
  }
}

export interface Civil {
  year: number;
  month: number; // 1..12
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number; // 0 = Sunday
  yday: number; // 1..366
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm). */
export function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(z: number): [number, number, number] {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp + (mp < 10 ? 3 : -9);
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

export function isLeap(y: number): boolean {
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
}

export function civil(localSec: number): Civil {
  const days = Math.floor(localSec / 86400);
  const rem = localSec - days * 86400;
  const [year, month, day] = civilFromDays(days);
  return {
    year,
    month,
    day,
    hour: Math.floor(rem / 3600),
    minute: Math.floor((rem % 3600) / 60),
    second: rem % 60,
    weekday: (((days + 4) % 7) + 7) % 7,
    yday: days - daysFromCivil(year, 1, 1) + 1,
  };
}

export const LONG_DAYS = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
];
export const LONG_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** Layout elements of Go's reference time `Mon Jan 2 15:04:05 MST 2006`. */
export type Std =
  | 'January'
  | 'Jan'
  | '1'
  | '01'
  | 'Monday'
  | 'Mon'
  | '2'
  | '_2'
  | '02'
  | '__2'
  | '002'
  | '15'
  | '3'
  | '03'
  | '4'
  | '04'
  | '5'
  | '05'
  | '2006'
  | '06'
  | 'PM'
  | 'pm'
  | 'MST'
  | 'Z0700'
  | 'Z070000'
  | 'Z07'
  | 'Z07:00'
  | 'Z07:00:00'
  | '-0700'
  | '-070000'
  | '-07'
  | '-07:00'
  | '-07:00:00'
  | 'frac0'
  | 'frac9';

export type LayoutChunk = string | { std: Std; digits?: number; sep?: string };

const layoutCache = new Map<string, LayoutChunk[]>();

const PREFIXES: [string, Std][] = [
  ['January', 'January'],
  ['Jan', 'Jan'],
  ['Monday', 'Monday'],
  ['Mon', 'Mon'],
  ['MST', 'MST'],
  ['002', '002'],
  ['01', '01'],
  ['02', '02'],
  ['03', '03'],
  ['04', '04'],
  ['05', '05'],
  ['06', '06'],
  ['15', '15'],
  ['1', '1'],
  ['2006', '2006'],
  ['2', '2'],
  ['__2', '__2'],
  ['_2', '_2'],
  ['3', '3'],
  ['4', '4'],
  ['5', '5'],
  ['PM', 'PM'],
  ['pm', 'pm'],
  ['-070000', '-070000'],
  ['-07:00:00', '-07:00:00'],
  ['-0700', '-0700'],
  ['-07:00', '-07:00'],
  ['-07', '-07'],
  ['Z070000', 'Z070000'],
  ['Z07:00:00', 'Z07:00:00'],
  ['Z0700', 'Z0700'],
  ['Z07:00', 'Z07:00'],
  ['Z07', 'Z07'],
];

function isDigitAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
}

/** Splits a Go layout into literal text and std elements (Go's nextStdChunk). */
export function parseLayout(layout: string): LayoutChunk[] {
  const cached = layoutCache.get(layout);
  if (cached) return cached;
  const out: LayoutChunk[] = [];
  let lit = '';
  let i = 0;
  outer: while (i < layout.length) {
    const c = layout[i];
    if ((c === '.' || c === ',') && (layout[i + 1] === '0' || layout[i + 1] === '9')) {
      const ch = layout[i + 1];
      let j = i + 1;
      while (j < layout.length && layout[j] === ch) j++;
      if (!isDigitAt(layout, j)) {
        if (lit) out.push(lit);
        lit = '';
        out.push({ std: ch === '0' ? 'frac0' : 'frac9', digits: j - i - 1, sep: c });
        i = j;
        continue;
      }
    }
    // "_2006" is a literal underscore followed by the long year.
    if (layout.startsWith('_2006', i)) {
      lit += '_';
      i++;
      continue;
    }
    for (const [p, std] of PREFIXES) {
      if (!layout.startsWith(p, i)) continue;
      // "Jan"/"Mon" need the next char not to be a lower-case letter; "2006" beats "2".
      if ((std === 'Jan' || std === 'Mon') && /[a-z]/.test(layout[i + 3] ?? '')) continue;
      if (lit) out.push(lit);
      lit = '';
      out.push({ std });
      i += p.length;
      continue outer;
    }
    lit += c;
    i++;
  }
  if (lit) out.push(lit);
  if (layoutCache.size > 256) layoutCache.clear();
  layoutCache.set(layout, out);
  return out;
}

function pad(n: number, width: number, ch = '0'): string {
  const s = String(Math.abs(n));
  return (n < 0 ? '-' : '') + (s.length >= width ? s : ch.repeat(width - s.length) + s);
}

function formatOffset(std: Std, offset: number): string {
  if (std.startsWith('Z') && offset === 0) return 'Z';
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const hh = pad(Math.floor(abs / 3600), 2);
  const mm = pad(Math.floor((abs % 3600) / 60), 2);
  const ss = pad(abs % 60, 2);
  switch (std.slice(1)) {
    case '07':
      return sign + hh;
    case '0700':
      return sign + hh + mm;
    case '07:00':
      return sign + hh + ':' + mm;
    case '070000':
      return sign + hh + mm + ss;
    default:
      return sign + hh + ':' + mm + ':' + ss;
  }
}

/** Go's Time.Format. */
export function formatTime(t: GoTime, layout: string): string {
  const { offset, abbrev } = t.zone.lookup(t.unixSec);
  const c = civil(t.unixSec + offset);
  let out = '';
  for (const chunk of parseLayout(layout)) {
    if (typeof chunk === 'string') {
      out += chunk;
      continue;
    }
    switch (chunk.std) {
      case 'January':
        out += LONG_MONTHS[c.month - 1];
        break;
      case 'Jan':
        out += LONG_MONTHS[c.month - 1].slice(0, 3);
        break;
      case '1':
        out += c.month;
        break;
      case '01':
        out += pad(c.month, 2);
        break;
      case 'Monday':
        out += LONG_DAYS[c.weekday];
        break;
      case 'Mon':
        out += LONG_DAYS[c.weekday].slice(0, 3);
        break;
      case '2':
        out += c.day;
        break;
      case '_2':
        out += pad(c.day, 2, ' ');
        break;
      case '02':
        out += pad(c.day, 2);
        break;
      case '__2':
        out += pad(c.yday, 3, ' ');
        break;
      case '002':
        out += pad(c.yday, 3);
        break;
      case '15':
        out += pad(c.hour, 2);
        break;
      case '3':
        out += c.hour % 12 === 0 ? 12 : c.hour % 12;
        break;
      case '03':
        out += pad(c.hour % 12 === 0 ? 12 : c.hour % 12, 2);
        break;
      case '4':
        out += c.minute;
        break;
      case '04':
        out += pad(c.minute, 2);
        break;
      case '5':
        out += c.second;
        break;
      case '05':
        out += pad(c.second, 2);
        break;
      case '2006':
        out += pad(c.year, 4);
        break;
      case '06':
        out += pad(((c.year % 100) + 100) % 100, 2);
        break;
      case 'PM':
        out += c.hour >= 12 ? 'PM' : 'AM';
        break;
      case 'pm':
        out += c.hour >= 12 ? 'pm' : 'am';
        break;
      case 'MST':
        out += abbrev !== '' ? abbrev : formatOffset('-0700', offset);
        break;
      case 'frac0':
      case 'frac9': {
        let digits = String(t.nsec).padStart(9, '0').slice(0, chunk.digits);
        if (chunk.std === 'frac9') digits = digits.replace(/0+$/, '');
        if (digits !== '') out += chunk.sep + digits;
        break;
      }
      default:
        out += formatOffset(chunk.std, offset);
    }
  }
  return out;
}
