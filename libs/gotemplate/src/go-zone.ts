/** Time zones for the template engine's time.Time: UTC, fixed offsets and IANA zones via Intl. */
export interface ZoneInfo {
  readonly offset: number; // seconds east of UTC
  readonly abbrev: string;
}

export interface Zone {
  readonly name: string;
  lookup(unixSec: number): ZoneInfo;
  /** The offset of the zone abbreviation `abbrev` around `unixSec`, if the zone uses it. */
  offsetOfAbbrev(abbrev: string, unixSec: number): number | undefined;
}

class FixedZone implements Zone {
  private readonly info: ZoneInfo;
  constructor(
    readonly name: string,
    offset: number,
    abbrev: string = name,
  ) {
    this.info = { offset, abbrev };
  }
  lookup(): ZoneInfo {
    return this.info;
  }
  offsetOfAbbrev(abbrev: string): number | undefined {
    return abbrev === this.info.abbrev ? this.info.offset : undefined;
  }
}

const GMT_OFFSET = /^(?:GMT|UTC)([+-])(\d{1,2})(?::(\d{2}))?$/;

class IntlZone implements Zone {
  private readonly numeric: Intl.DateTimeFormat;
  private readonly shortUS: Intl.DateTimeFormat;
  private readonly shortGB: Intl.DateTimeFormat;
  private readonly cache = new Map<number, ZoneInfo>();

  constructor(readonly name: string) {
    this.numeric = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    this.shortUS = new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'short' });
    this.shortGB = new Intl.DateTimeFormat('en-GB', { timeZone: name, timeZoneName: 'short' });
  }

  lookup(unixSec: number): ZoneInfo {
    // Offsets change on whole quarter hours, so a 15-minute bucket is a safe cache key.
    const key = Math.floor(unixSec / 900);
    let info = this.cache.get(key);
    if (info === undefined) {
      info = this.compute(unixSec);
      if (this.cache.size > 4096) this.cache.clear();
      this.cache.set(key, info);
    }
    return info;
  }

  offsetOfAbbrev(abbrev: string, unixSec: number): number | undefined {
    for (const probe of [unixSec, unixSec - 183 * 86400, unixSec + 183 * 86400]) {
      const info = this.lookup(probe);
      if (info.abbrev === abbrev) return info.offset;
    }
    return undefined;
  }

  private compute(unixSec: number): ZoneInfo {
    const ms = Math.floor(unixSec) * 1000;
    const date = new Date(ms);
    const parts: Record<string, string> = {};
    for (const p of this.numeric.formatToParts(date)) parts[p.type] = p.value;
    let year = Number(parts.year);
    if (parts.era === 'BC' || parts.era === 'B') year = 1 - year;
    const local = Date.UTC(
      2000,
      Number(parts.month) - 1,
      Number(parts.day),
      Number(parts.hour),
      Number(parts.minute),
      Number(parts.second),
    );
    const shifted = new Date(local);
    shifted.setUTCFullYear(year);
    const offset = Math.round((shifted.getTime() - ms) / 1000);
    return { offset, abbrev: this.abbrev(date, offset) };
  }

  private abbrev(date: Date, offset: number): string {
    for (const fmt of [this.shortUS, this.shortGB]) {
      const name = fmt.formatToParts(date).find((p) => p.type === 'timeZoneName')?.value ?? '';
      if (name !== '' && !GMT_OFFSET.test(name) && name !== 'GMT') return name;
      if (name === 'GMT' && offset === 0 && fmt === this.shortGB) return 'GMT';
    }
    if (offset === 0 && /^(Etc\/)?(UTC|UCT|Universal|Zulu)$/.test(this.name)) return 'UTC';
    // tzdata's numeric abbreviations look like "+03" or "+0530".
    const sign = offset < 0 ? '-' : '+';
    const abs = Math.abs(offset);
    const hh = String(Math.floor(abs / 3600)).padStart(2, '0');
    const mm = Math.floor((abs % 3600) / 60);
    return sign + hh + (mm === 0 ? '' : String(mm).padStart(2, '0'));
  }
}

export const UTC: Zone = new FixedZone('UTC', 0);

export function fixedZone(name: string, offset: number): Zone {
  return new FixedZone(name, offset);
}

function makeLocal(): Zone {
  const tz = process.env.TZ ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (tz === undefined || tz === '' || /^(Etc\/)?(UTC|UCT|Universal|Zulu|GMT)$/.test(tz)) {
    return new FixedZone('Local', 0, 'UTC');
  }
  try {
    return new IntlZone(tz);
  } catch {
    return new FixedZone('Local', 0, 'UTC');
  }
}

/** Go's time.Local: the zone of the process (TZ), UTC when unset or unknown. */
export const LOCAL: Zone = makeLocal();

const loaded = new Map<string, Zone>();

/** Go's time.LoadLocation; returns undefined for unknown zones. */
export function loadLocation(name: string): Zone | undefined {
  if (name === '' || name === 'UTC') return UTC;
  if (name === 'Local') return LOCAL;
  let zone = loaded.get(name);
  if (zone === undefined) {
    try {
      zone = new IntlZone(name);
    } catch {
      return undefined;
    }
    loaded.set(name, zone);
  }
  return zone;
}
