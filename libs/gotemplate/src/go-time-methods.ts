import type { ParamType } from './func-types';
import { formatDuration, namedIntString } from './go-duration';
import { civil, formatTime, GoTime } from './go-time';
import { LOCAL, UTC } from './go-zone';
import { SizedInt, type Value } from './values';

/** A Go method callable from a template: `.Method arg...` on a value of its receiver type. */
export interface Method<R> {
  params: ParamType[];
  call(receiver: R, args: Value[]): Value;
}

const NS = 1_000_000_000n;
/** Nanoseconds from Go's zero time (January 1, year 1 UTC) to the Unix epoch. */
const ZERO_TO_UNIX_NS = 62135596800n * NS;
const MIN_INT64 = -(1n << 63n);
const MAX_INT64 = (1n << 63n) - 1n;

const int64 = (v: bigint): SizedInt => new SizedInt('int64', BigInt.asIntN(64, v));
const duration = (v: bigint): SizedInt => new SizedInt('time.Duration', v);
const nanosOf = (d: Value): bigint => (d as SizedInt).v;

function civilOf(t: GoTime): ReturnType<typeof civil> {
  return civil(t.unixSec + t.zone.lookup(t.unixSec).offset);
}

function add(t: GoTime, d: bigint): GoTime {
  return GoTime.fromUnixNanos(t.unixNanos() + d, t.zone);
}

/** Remainder of t since Go's zero time, divided by d (floor, as Go's div). */
function remainder(t: GoTime, d: bigint): bigint {
  const r = (t.unixNanos() + ZERO_TO_UNIX_NS) % d;
  return r < 0n ? r + d : r;
}

function truncate(t: GoTime, d: bigint): GoTime {
  return d <= 0n ? t : add(t, -remainder(t, d));
}

/** Go's Round: halfway values round up. */
function round(t: GoTime, d: bigint): GoTime {
  if (d <= 0n) return t;
  const r = remainder(t, d);
  return r + r < d ? add(t, -r) : add(t, d - r);
}

/** Go's Sub: saturates at the smallest and largest Duration. */
function sub(t: GoTime, u: GoTime): bigint {
  const d = t.unixNanos() - u.unixNanos();
  return d < MIN_INT64 ? MIN_INT64 : d > MAX_INT64 ? MAX_INT64 : d;
}

const compare = (t: GoTime, u: Value): number => {
  const d = t.unixNanos() - (u as GoTime).unixNanos();
  return d < 0n ? -1 : d > 0n ? 1 : 0;
};

/** time.Time methods; integers come back with Go's result types (int, int64, Month, ...). */
export const TIME_METHODS: Readonly<Record<string, Method<GoTime>>> = {
  Year: { params: [], call: (t) => BigInt(civilOf(t).year) },
  Month: { params: [], call: (t) => new SizedInt('time.Month', BigInt(civilOf(t).month)) },
  Day: { params: [], call: (t) => BigInt(civilOf(t).day) },
  Weekday: { params: [], call: (t) => new SizedInt('time.Weekday', BigInt(civilOf(t).weekday)) },
  YearDay: { params: [], call: (t) => BigInt(civilOf(t).yday) },
  Hour: { params: [], call: (t) => BigInt(civilOf(t).hour) },
  Minute: { params: [], call: (t) => BigInt(civilOf(t).minute) },
  Second: { params: [], call: (t) => BigInt(civilOf(t).second) },
  Nanosecond: { params: [], call: (t) => BigInt(t.nsec) },
  Unix: { params: [], call: (t) => int64(BigInt(t.unixSec)) },
  UnixMilli: { params: [], call: (t) => int64(t.unixMillis()) },
  UnixMicro: {
    params: [],
    call: (t) => int64(BigInt(t.unixSec) * 1_000_000n + BigInt(Math.floor(t.nsec / 1000))),
  },
  UnixNano: { params: [], call: (t) => int64(t.unixNanos()) },
  UTC: { params: [], call: (t) => t.in(UTC) },
  Local: { params: [], call: (t) => t.in(LOCAL) },
  Truncate: { params: ['duration'], call: (t, a) => truncate(t, nanosOf(a[0])) },
  Round: { params: ['duration'], call: (t, a) => round(t, nanosOf(a[0])) },
  Add: { params: ['duration'], call: (t, a) => add(t, nanosOf(a[0])) },
  Sub: { params: ['time'], call: (t, a) => duration(sub(t, a[0] as GoTime)) },
  Before: { params: ['time'], call: (t, a) => compare(t, a[0]) < 0 },
  After: { params: ['time'], call: (t, a) => compare(t, a[0]) > 0 },
  Equal: { params: ['time'], call: (t, a) => compare(t, a[0]) === 0 },
  IsZero: { params: [], call: (t) => t.unixSec === GoTime.ZERO.unixSec && t.nsec === 0 },
  Format: { params: ['string'], call: (t, a) => formatTime(t, a[0] as string) },
  String: { params: [], call: (t) => t.toString() },
};

/** Go's Duration.Hours/Minutes/Seconds: whole units plus the fraction, as float64. */
function inUnits(d: bigint, unit: bigint): number {
  return Number(d / unit) + Number(d % unit) / Number(unit);
}

const DURATION_METHODS: Readonly<Record<string, Method<SizedInt>>> = {
  Hours: { params: [], call: (d) => inUnits(d.v, 3600n * NS) },
  Minutes: { params: [], call: (d) => inUnits(d.v, 60n * NS) },
  Seconds: { params: [], call: (d) => inUnits(d.v, NS) },
  Milliseconds: { params: [], call: (d) => int64(d.v / 1_000_000n) },
  Microseconds: { params: [], call: (d) => int64(d.v / 1000n) },
  Nanoseconds: { params: [], call: (d) => int64(d.v) },
  String: { params: [], call: (d) => formatDuration(d.v) },
};

/** time.Month and time.Weekday: their String method. */
const STRINGER_ONLY: Readonly<Record<string, Method<SizedInt>>> = {
  String: { params: [], call: (v) => namedIntString(v) ?? v.v.toString() },
};

/** The method `name` of a template value, if Go's type has one. */
export function methodOf(v: Value, name: string): Method<GoTime> | Method<SizedInt> | undefined {
  if (v instanceof GoTime)
    return Object.hasOwn(TIME_METHODS, name) ? TIME_METHODS[name] : undefined;
  if (v instanceof SizedInt) {
    const table =
      v.type === 'time.Duration'
        ? DURATION_METHODS
        : v.type === 'time.Month' || v.type === 'time.Weekday'
          ? STRINGER_ONLY
          : undefined;
    return table && Object.hasOwn(table, name) ? table[name] : undefined;
  }
  return undefined;
}
