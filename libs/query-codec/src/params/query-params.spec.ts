import { describe, expect, it } from 'vitest';
import { goDurationString, goFormatFloat } from '@logsvc/gocompat';
import {
  ParamError,
  defaultStepNs,
  parseBounds,
  parseInstantQuery,
  parseRangeQuery,
  parseTimestamp,
} from './query-params';

const S = 1_000_000_000n;
const NOW = 1_700_000_000n * S;
const reader = (params: Record<string, string>) => (name: string) => params[name];

describe('parseTimestamp', () => {
  it.each([
    ['1700000000', 1_700_000_000n * S],
    ['1700000000123456789', 1_700_000_000_123_456_789n],
    ['1700000000.5', 1_700_000_000_500_000_000n],
    ['1700000000.1236', 1_700_000_000_124_000_000n],
    ['2023-11-14T22:13:20Z', 1_700_000_000n * S],
    ['2023-11-14T22:13:20.000000007Z', 1_700_000_000n * S + 7n],
    ['2023-11-15T00:13:20+02:00', 1_700_000_000n * S],
  ])('%s', (text, ns) => {
    expect(parseTimestamp(text, 0n)).toBe(ns);
  });

  it('uses the default for an empty value', () => {
    expect(parseTimestamp('', 42n)).toBe(42n);
  });
});

describe('parseBounds', () => {
  it('defaults to [end - since, now]', () => {
    expect(parseBounds(reader({}), NOW, 3600n * S)).toEqual({
      startNs: NOW - 3600n * S,
      endNs: NOW,
    });
    expect(parseBounds(reader({ since: '15m' }), NOW, 3600n * S).startNs).toBe(NOW - 900n * S);
  });

  it('measures since from now when end is in the future, and start wins over since', () => {
    const future = String(NOW + 3600n * S);
    expect(parseBounds(reader({ end: future, since: '1m' }), NOW, 0n).startNs).toBe(NOW - 60n * S);
    expect(parseBounds(reader({ start: '1600000000', since: '1m' }), NOW, 0n).startNs).toBe(
      1_600_000_000n * S,
    );
  });

  it('names the bad parameter', () => {
    expect(() => parseBounds(reader({ end: 'x' }), NOW, 0n)).toThrow(
      `could not parse 'end' parameter: strconv.ParseInt: parsing "x": invalid syntax`,
    );
    expect(() => parseBounds(reader({ since: '1q' }), NOW, 0n)).toThrow(ParamError);
  });
});

describe('parseRangeQuery', () => {
  it('applies Loki’s defaults', () => {
    const p = parseRangeQuery(reader({ query: '{a="b"}' }), NOW);
    expect(p).toEqual({
      query: '{a="b"}',
      startNs: NOW - 3600n * S,
      endNs: NOW,
      limit: 100,
      direction: 'backward',
      stepNs: 14n * S,
      intervalNs: 0n,
    });
  });

  it('reads step and interval as float seconds or durations', () => {
    const p = parseRangeQuery(reader({ step: '1.5', interval: '2m', direction: 'FORWARD' }), NOW);
    expect(p.stepNs).toBe(1_500_000_000n);
    expect(p.intervalNs).toBe(120n * S);
    expect(p.direction).toBe('forward');
  });

  it.each([
    [
      { start: '1700000100', end: '1700000000' },
      'end timestamp must not be before or equal to start time',
    ],
    [{ limit: '0' }, 'limit must be a positive value'],
    [{ limit: 'ten' }, 'strconv.Atoi: parsing "ten": invalid syntax'],
    [{ direction: 'up' }, "invalid direction 'up'"],
    [
      { step: '0' },
      'zero or negative query resolution step widths are not accepted. Try a positive integer',
    ],
    [{ step: 'fast' }, 'cannot parse "fast" to a valid duration'],
    [{ interval: '-1' }, 'interval must be >= 0'],
    [
      { step: '0.1' },
      'exceeded maximum resolution of 11,000 points per time series. Try increasing the value of the step parameter',
    ],
  ])('%o → %s', (params, message) => {
    expect(() => parseRangeQuery(reader(params), NOW)).toThrow(new ParamError(message));
  });

  it('computes the default step from the range', () => {
    expect(defaultStepNs(0n, 100n * S)).toBe(1n * S);
    expect(defaultStepNs(0n, 86400n * S)).toBe(345n * S);
  });
});

describe('parseInstantQuery', () => {
  it('defaults time to now', () => {
    expect(parseInstantQuery(reader({ query: 'x' }), NOW).timeNs).toBe(NOW);
    expect(parseInstantQuery(reader({ time: '1700000000' }), NOW).timeNs).toBe(NOW);
  });

  it("answers a bad time with Go's error alone, after the limit, as Loki does", () => {
    expect(() => parseInstantQuery(reader({ time: 'abc' }), NOW)).toThrow(
      /^strconv\.ParseInt: parsing "abc": invalid syntax$/,
    );
    expect(() => parseInstantQuery(reader({ time: 'abc', limit: '-1' }), NOW)).toThrow(
      'limit must be a positive value',
    );
  });
});

describe('Go formatting', () => {
  it.each([
    [0n, '0s'],
    [1_500_000_000n, '1.5s'],
    [250_000_000n, '250ms'],
    [721n * 3600n * S + S, '721h0m1s'],
    [90n * S, '1m30s'],
  ])('time.Duration(%s)', (ns, text) => {
    expect(goDurationString(ns)).toBe(text);
  });

  it.each([
    [1, '1'],
    [0.1, '0.1'],
    [1e21, '1000000000000000000000'],
    [1.5e-7, '0.00000015'],
    [NaN, 'NaN'],
    [Infinity, '+Inf'],
    [-Infinity, '-Inf'],
  ])('FormatFloat(%s)', (v, text) => {
    expect(goFormatFloat(v)).toBe(text);
  });
});
