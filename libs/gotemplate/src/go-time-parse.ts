import { daysFromCivil, GoTime, isLeap, LONG_DAYS, LONG_MONTHS, parseLayout } from './go-time';
import { fixedZone, UTC, type Zone } from './go-zone';

const DAYS_IN = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function lookupName(names: string[], value: string, short: boolean): [number, string] | undefined {
  for (let i = 0; i < names.length; i++) {
    const n = short ? names[i].slice(0, 3) : names[i];
    if (value.length >= n.length && value.slice(0, n.length).toLowerCase() === n.toLowerCase()) {
      return [i, value.slice(n.length)];
    }
  }
  return undefined;
}

/** Reads up to `max` (at least `min`) decimal digits. */
function getNum(value: string, min: number, max: number): [number, string] | undefined {
  let i = 0;
  while (i < max && i < value.length && value[i] >= '0' && value[i] <= '9') i++;
  if (i < min) return undefined;
  return [Number(value.slice(0, i)), value.slice(i)];
}

function parseTimeZoneAbbrev(value: string): number {
  if (value.length < 3) return 0;
  if (value.startsWith('ChST') || value.startsWith('MeST')) return 4;
  if (value.startsWith('GMT')) {
    let n = 3;
    const m = /^[+-](\d{1,2})/.exec(value.slice(3));
    if (m && Number(m[1]) <= 23) n += m[0].length;
    return n;
  }
  if (value[0] === '+' || value[0] === '-') {
    const m = /^[+-]\d\d(\d\d)?/.exec(value);
    return m ? m[0].length : 0;
  }
  let n = 0;
  while (n < value.length && value[n] >= 'A' && value[n] <= 'Z') n++;
  if (n === 3 || n === 4 || (n === 5 && value[4] === 'T')) return n;
  return 0;
}

/**
 * Go's time.ParseInLocation, minus error texts: returns undefined when the value does not match
 * the layout (the template functions that parse ignore errors and use the zero time).
 */
export function parseTime(layout: string, input: string, loc: Zone): GoTime | undefined {
  let value = input;
  let year = 0;
  let month = -1;
  let day = -1;
  let yday = -1;
  let hour = 0;
  let min = 0;
  let sec = 0;
  let nsec = 0;
  let pmSet = false;
  let amSet = false;
  let zoneOffset = -1;
  let zoneName = '';
  let utc = false;
  const chunks = parseLayout(layout);
  for (let ci = 0; ci < chunks.length; ci++) {
    const chunk = chunks[ci];
    if (typeof chunk === 'string') {
      // Go skips leading spaces on both sides before matching a literal.
      let lit = chunk;
      while (lit.length > 0 && lit[0] === ' ' && value.length > 0 && value[0] === ' ') {
        lit = lit.slice(1);
        value = value.slice(1);
      }
      if (!value.startsWith(lit)) return undefined;
      value = value.slice(lit.length);
      continue;
    }
    let r: [number, string] | undefined;
    switch (chunk.std) {
      case '2006':
        if (value.length < 4 || !/^\d{4}/.test(value)) return undefined;
        year = Number(value.slice(0, 4));
        value = value.slice(4);
        continue;
      case '06':
        if (!/^\d\d/.test(value)) return undefined;
        year = Number(value.slice(0, 2));
        year += year >= 69 ? 1900 : 2000;
        value = value.slice(2);
        continue;
      case 'January':
      case 'Jan':
        r = lookupName(LONG_MONTHS, value, chunk.std === 'Jan');
        if (!r) return undefined;
        month = r[0] + 1;
        value = r[1];
        continue;
      case 'Monday':
      case 'Mon':
        r = lookupName(LONG_DAYS, value, chunk.std === 'Mon');
        if (!r) return undefined;
        value = r[1];
        continue;
      case '1':
      case '01':
        r = getNum(value, chunk.std === '01' ? 2 : 1, 2);
        if (!r || r[0] < 1 || r[0] > 12) return undefined;
        [month, value] = r;
        continue;
      case '2':
      case '_2':
      case '02':
        if (chunk.std === '_2' && value[0] === ' ') value = value.slice(1);
        r = getNum(value, chunk.std === '02' ? 2 : 1, 2);
        if (!r || r[0] < 1 || r[0] > 31) return undefined;
        [day, value] = r;
        continue;
      case '__2':
      case '002':
        if (chunk.std === '__2') value = value.replace(/^ {1,2}/, '');
        r = getNum(value, chunk.std === '002' ? 3 : 1, 3);
        if (!r || r[0] < 1 || r[0] > 366) return undefined;
        [yday, value] = r;
        continue;
      case '15':
        r = getNum(value, 1, 2);
        if (!r || r[0] > 23) return undefined;
        [hour, value] = r;
        continue;
      case '3':
      case '03':
        r = getNum(value, chunk.std === '03' ? 2 : 1, 2);
        if (!r || r[0] > 12) return undefined;
        [hour, value] = r;
        continue;
      case '4':
      case '04':
        r = getNum(value, chunk.std === '04' ? 2 : 1, 2);
        if (!r || r[0] > 59) return undefined;
        [min, value] = r;
        continue;
      case '5':
      case '05': {
        r = getNum(value, chunk.std === '05' ? 2 : 1, 2);
        if (!r || r[0] > 59) return undefined;
        [sec, value] = r;
        // A fractional second after the seconds is accepted even if the layout lacks it.
        const next = chunks[ci + 1];
        const nextIsFrac =
          typeof next === 'object' && (next.std === 'frac0' || next.std === 'frac9');
        if (!nextIsFrac && /^[.,]\d/.test(value)) {
          const m = /^[.,](\d+)/.exec(value)!;
          nsec = Number(m[1].slice(0, 9).padEnd(9, '0'));
          value = value.slice(m[0].length);
        }
        continue;
      }
      case 'PM':
      case 'pm': {
        const p = value.slice(0, 2);
        if (p === 'PM' || (chunk.std === 'pm' && p === 'pm')) pmSet = true;
        else if (p === 'AM' || (chunk.std === 'pm' && p === 'am')) amSet = true;
        else return undefined;
        value = value.slice(2);
        continue;
      }
      case 'frac0':
      case 'frac9': {
        if (chunk.std === 'frac0') {
          const n = 1 + chunk.digits!;
          if (value.length < n || !/^[.,]/.test(value) || !/^\d+$/.test(value.slice(1, n)))
            return undefined;
          nsec = Number(value.slice(1, n).slice(0, 9).padEnd(9, '0'));
          value = value.slice(n);
        } else {
          const m = /^[.,](\d+)/.exec(value);
          if (!m) continue; // fractional second is optional
          nsec = Number(m[1].slice(0, 9).padEnd(9, '0'));
          value = value.slice(m[0].length);
        }
        continue;
      }
      case 'MST': {
        if (value.length >= 3 && value.startsWith('UTC')) {
          zoneName = 'UTC';
          value = value.slice(3);
          continue;
        }
        const n = parseTimeZoneAbbrev(value);
        if (n === 0) return undefined;
        zoneName = value.slice(0, n);
        value = value.slice(n);
        continue;
      }
      default: {
        // ISO 8601 / numeric offsets.
        if (chunk.std.startsWith('Z') && value[0] === 'Z') {
          value = value.slice(1);
          utc = true;
          continue;
        }
        const form = chunk.std.slice(1);
        const re =
          form === '07'
            ? /^([+-])(\d\d)/
            : form === '0700'
              ? /^([+-])(\d\d)(\d\d)/
              : form === '07:00'
                ? /^([+-])(\d\d):(\d\d)/
                : form === '070000'
                  ? /^([+-])(\d\d)(\d\d)(\d\d)/
                  : /^([+-])(\d\d):(\d\d):(\d\d)/;
        const m = re.exec(value);
        if (!m) return undefined;
        const off = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
        zoneOffset = m[1] === '-' ? -off : off;
        value = value.slice(m[0].length);
      }
    }
  }
  if (value.length > 0) return undefined;
  if (pmSet && hour < 12) hour += 12;
  else if (amSet && hour === 12) hour = 0;
  if (yday >= 0) {
    const leap = isLeap(year);
    if (yday > (leap ? 366 : 365)) return undefined;
    let m = 0;
    let d = yday;
    while (d > DAYS_IN[m] + (m === 1 && leap ? 1 : 0)) {
      d -= DAYS_IN[m] + (m === 1 && leap ? 1 : 0);
      m++;
    }
    if ((month >= 0 && month !== m + 1) || (day >= 0 && day !== d)) return undefined;
    month = m + 1;
    day = d;
  } else {
    if (month < 0) month = 1;
    if (day < 0) day = 1;
  }
  if (day > DAYS_IN[month - 1] + (month === 2 && isLeap(year) ? 1 : 0)) return undefined;
  const wall = daysFromCivil(year, month, day) * 86400 + hour * 3600 + min * 60 + sec;
  if (utc) return new GoTime(wall, nsec, UTC);
  if (zoneOffset !== -1) {
    const t = wall - zoneOffset;
    const local = loc.lookup(t);
    if (local.offset === zoneOffset && (zoneName === '' || local.abbrev === zoneName)) {
      return new GoTime(t, nsec, loc);
    }
    return new GoTime(t, nsec, fixedZone(zoneName, zoneOffset));
  }
  if (zoneName !== '') {
    const off = loc.offsetOfAbbrev(zoneName, wall);
    if (off !== undefined) return new GoTime(wall - off, nsec, loc);
    let offset = 0;
    if (zoneName.length > 3 && zoneName.startsWith('GMT'))
      offset = Number(zoneName.slice(3)) * 3600;
    return new GoTime(wall - offset, nsec, fixedZone(zoneName, offset));
  }
  return dateIn(wall, nsec, loc);
}

/** Go's time.Date for a wall-clock time in `loc` (offset looked up the way Go does). */
export function dateIn(wall: number, nsec: number, loc: Zone): GoTime {
  const off1 = loc.lookup(wall).offset;
  let unix = wall - off1;
  const off2 = loc.lookup(unix).offset;
  if (off2 !== off1) {
    const alt = wall - off2;
    if (loc.lookup(alt).offset === off2) unix = alt;
  }
  return new GoTime(unix, nsec, loc);
}
