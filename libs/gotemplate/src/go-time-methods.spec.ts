import { describe, expect, it } from 'vitest';
import { formatDuration } from './go-duration';
import { compileTemplate } from './index';

// 2023-11-14T22:13:20.123456789Z, a Tuesday.
const ctx = { line: '', timestampNs: 1_700_000_000_123_456_789n };
const run = (t: string): string => compileTemplate(t).execute({}, ctx);

describe('time.Time methods in templates', () => {
  it.each([
    ['{{ __timestamp__.UTC.Weekday }}', 'Tuesday'],
    ['{{ __timestamp__.UTC.Month }}', 'November'],
    [
      '{{ $t := __timestamp__.UTC }}{{ $t.Year }} {{ $t.Day }} {{ $t.YearDay }} {{ $t.Hour }} {{ $t.Minute }} {{ $t.Second }} {{ $t.Nanosecond }}',
      '2023 14 318 22 13 20 123456789',
    ],
    // Month and Weekday are Stringers for %v/%s, integers for %d and comparisons.
    [
      '{{ $t := __timestamp__.UTC }}{{ printf "%d %v %s %d" $t.Month $t.Month $t.Weekday $t.Weekday }}',
      '11 November Tuesday 2',
    ],
    ['{{ eq __timestamp__.UTC.Weekday 2 }} {{ gt __timestamp__.UTC.Month 10 }}', 'true true'],
    ['{{ __timestamp__.UTC.Month.String }}', 'November'],
    [
      '{{ __timestamp__.Unix }} {{ __timestamp__.UnixMilli }} {{ __timestamp__.UnixMicro }} {{ __timestamp__.UnixNano }}',
      '1700000000 1700000000123 1700000000123456 1700000000123456789',
    ],
    ['{{ printf "%T" __timestamp__.Unix }}', 'int64'],
    ['{{ __timestamp__.UTC.Truncate 3600000000000 }}', '2023-11-14 22:00:00 +0000 UTC'],
    // Truncate counts from Go's zero time (a Monday), not from the Unix epoch.
    ['{{ __timestamp__.UTC.Truncate 604800000000000 }}', '2023-11-13 00:00:00 +0000 UTC'],
    ['{{ __timestamp__.UTC.Round 1000000000 }}', '2023-11-14 22:13:20 +0000 UTC'],
    ['{{ __timestamp__.UTC.Round 60000000000 }}', '2023-11-14 22:13:00 +0000 UTC'],
    ['{{ __timestamp__.UTC.Round 40000000000 }}', '2023-11-14 22:13:20 +0000 UTC'],
    ['{{ __timestamp__.UTC.Truncate 0 | unixEpochNanos }}', '1700000000123456789'],
    ['{{ (__timestamp__.Add 90000000000).UTC.Format "15:04:05" }}', '22:14:50'],
    ['{{ (__timestamp__.Add -1).UTC.Nanosecond }}', '123456788'],
    [
      '{{ __timestamp__.Sub (toDateInZone "2006-01-02" "UTC" "2023-11-14") }}',
      '22h13m20.123456789s',
    ],
    ['{{ (__timestamp__.Sub (unixToTime "1700000000")).Seconds }}', '0.123456789'],
    ['{{ (__timestamp__.Sub (unixToTime "1699999100")).Minutes }}', '15.00205761315'],
    ['{{ (__timestamp__.Sub (unixToTime "1699999100")).Milliseconds }}', '900123'],
    ['{{ __timestamp__.Sub __timestamp__ }}', '0s'],
    [
      '{{ __timestamp__.After (unixToTime "1700000000") }} {{ __timestamp__.Before (unixToTime "1700000000") }} {{ __timestamp__.Equal __timestamp__.UTC }}',
      'true false true',
    ],
    ['{{ (toDate "2006-01-02" "bad").IsZero }} {{ __timestamp__.IsZero }}', 'true false'],
    ['{{ (unixToTime "1700000000").UTC.String }}', '2023-11-14 22:13:20 +0000 UTC'],
    ['{{ (now.Sub (toDate "2006-01-02" "2020-01-01")).Hours | lt 8760.0 }}', 'true'],
  ])('%s', (t, want) => {
    expect(run(t)).toBe(want);
  });

  it.each([
    ['{{ __timestamp__.Add "1h" }}', 'expected integer; found "1h"'],
    ['{{ __timestamp__.Add (duration "1h") }}', 'expected time.Duration; got float64'],
    ['{{ __timestamp__.Add }}', 'wrong number of args for Add: want 1 got 0'],
    ['{{ __timestamp__.Format "15" "x" }}', 'wrong number of args for Format: want 1 got 2'],
    ['{{ __timestamp__.Nope }}', "can't evaluate field Nope in type time.Time"],
    ['{{ __timestamp__.Month.Hours }}', "can't evaluate field Hours in type time.Month"],
  ])('%s fails with Go text', (t, want) => {
    expect(() => run(t)).toThrow(want);
  });
});

describe('formatDuration is Go time.Duration.String', () => {
  it.each([
    [0n, '0s'],
    [999n, '999ns'],
    [1000n, '1µs'],
    [1500n, '1.5µs'],
    [1_500_000n, '1.5ms'],
    [1_000_000_001n, '1.000000001s'],
    [3_723_000_000_000n, '1h2m3s'],
    [-90_000_000_000n, '-1m30s'],
    [-(1n << 63n), '-2562047h47m16.854775808s'],
  ])('%s', (d, want) => {
    expect(formatDuration(d)).toBe(want);
  });
});
