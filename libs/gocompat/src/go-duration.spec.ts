import { describe, expect, it } from 'vitest';
import {
  durationSeconds,
  modelDurationString,
  modelParseDuration,
  timeParseDuration,
} from './go-duration';

describe('timeParseDuration', () => {
  it('parses Go durations as label filters and unwrap read label values', () => {
    expect(timeParseDuration('1h30m')).toBe(5400_000_000_000n);
    expect(timeParseDuration('0.10ms')).toBe(100_000n);
    expect(timeParseDuration('-1.5s')).toBe(-1_500_000_000n);
    expect(timeParseDuration('250µs')).toBe(250_000n);
    expect(timeParseDuration('0')).toBe(0n);
    expect(() => timeParseDuration('5')).toThrow('time: missing unit in duration "5"');
    expect(() => timeParseDuration('5d')).toThrow('time: unknown unit "d" in duration "5d"');
    expect(() => timeParseDuration('')).toThrow('time: invalid duration ""');
  });

  it('truncates fractions below a nanosecond and refuses int64 overflow, as Go does', () => {
    expect(timeParseDuration('1.9ns')).toBe(1n);
    expect(timeParseDuration('2562047h')).toBe(2562047n * 3_600_000_000_000n);
    expect(() => timeParseDuration('2562048h')).toThrow('time: invalid duration "2562048h"');
  });

  it('gives seconds the way Duration.Seconds does', () => {
    expect(durationSeconds(timeParseDuration('1m30.5s'))).toBe(90.5);
  });
});

describe('modelParseDuration', () => {
  it('parses Prometheus durations as ranges use them', () => {
    expect(modelParseDuration('1d')).toBe(86_400_000);
    expect(modelParseDuration('1y2w')).toBe((365 + 14) * 86_400_000);
    // prometheus/common v0.61 names the unit it does not know.
    expect(() => modelParseDuration('1.5h')).toThrow('unknown unit "." in duration "1.5h"');
    expect(() => modelParseDuration('5minutes')).toThrow(
      'unknown unit "minutes" in duration "5minutes"',
    );
    expect(() => modelParseDuration('1m:')).toThrow('unknown unit "m:" in duration "1m:"');
    expect(() => modelParseDuration('5m1h')).toThrow('not a valid duration string: "5m1h"');
    expect(() => modelParseDuration('1h5')).toThrow('not a valid duration string: "1h5"');
    expect(() => modelParseDuration('h')).toThrow('not a valid duration string: "h"');
    expect(modelParseDuration('1h30m15s10ms')).toBe(5_415_010);
    expect(() => modelParseDuration('')).toThrow('empty duration string');
  });

  it('formats like Prometheus model.Duration', () => {
    expect(modelDurationString(0)).toBe('0s');
    expect(modelDurationString(604_800_000)).toBe('1w');
    expect(modelDurationString(5_400_000)).toBe('1h30m');
    // Years and weeks only when they are exact.
    expect(modelDurationString(721 * 3_600_000)).toBe('30d1h');
    expect(modelDurationString(366 * 86_400_000)).toBe('366d');
    expect(modelDurationString(300)).toBe('300ms');
    expect(modelParseDuration(modelDurationString(721 * 3_600_000))).toBe(721 * 3_600_000);
  });
});
