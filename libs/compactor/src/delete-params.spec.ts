import { describe, expect, it } from 'vitest';
import { forInterval, goDuration, planDeleteRequest } from './delete-params';

const NOW = 1_700_000_000_000;
const H = 3_600_000;
const DAY = 24 * H;

function err(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
}

describe('planDeleteRequest (Loki request_handler.go)', () => {
  it('keeps a selector without filters as one part, end defaulting to now', () => {
    const p = planDeleteRequest({ query: '{app="a"}', start: '1699990000' }, NOW, DAY);
    expect(p.parts).toEqual([{ startMs: 1_699_990_000_000, endMs: NOW }]);
  });

  it('splits a filtered request by max_interval, aligned to the interval', () => {
    const start = NOW - 3 * H - 1000;
    const p = planDeleteRequest(
      {
        query: '{app="a"} |= "x"',
        start: new Date(start).toISOString().replace(/\.\d+Z$/, 'Z'),
        max_interval: '1h',
      },
      NOW,
      DAY,
    );
    expect(p.parts.length).toBe(4);
    expect(p.parts[p.parts.length - 1].endMs).toBe(NOW);
    for (let i = 1; i < p.parts.length; i++) expect(p.parts[i].startMs % H).toBe(0);
  });

  it('answers with Loki texts', () => {
    expect(err(() => planDeleteRequest({}, NOW, DAY))).toBe('query not set');
    expect(err(() => planDeleteRequest({ query: 'sum(x)', start: '1' }, NOW, DAY))).toBe(
      'invalid query expression',
    );
    expect(err(() => planDeleteRequest({ query: '{a="b"}' }, NOW, DAY))).toBe('start time not set');
    expect(err(() => planDeleteRequest({ query: '{a="b"}', start: '12345' }, NOW, DAY))).toBe(
      'invalid start time: require unix seconds or RFC3339 format',
    );
    expect(
      err(() =>
        planDeleteRequest({ query: '{a="b"}', start: '1600000000', end: '1800000000' }, NOW, DAY),
      ),
    ).toBe('deletes in the future are not allowed');
    expect(
      err(() =>
        planDeleteRequest({ query: '{a="b"}', start: '1699000000', end: '1600000000' }, NOW, DAY),
      ),
    ).toBe("start time can't be greater than end time");
    expect(
      err(() =>
        planDeleteRequest(
          { query: '{a="b"} |= "x"', start: '1699000000', max_interval: '1d' },
          NOW,
          DAY,
        ),
      ),
    ).toBe("invalid max_interval: valid time units are 's', 'm', 'h'");
    expect(
      err(() =>
        planDeleteRequest(
          { query: '{a="b"} |= "x"', start: '1600000000', max_interval: '48h' },
          NOW,
          DAY,
        ),
      ),
    ).toBe("max_interval can't be greater than 24h0m0s");
  });

  it('forInterval covers the range with touching parts', () => {
    expect(forInterval(10, 5, 31)).toEqual([
      { startMs: 5, endMs: 10 },
      { startMs: 10, endMs: 20 },
      { startMs: 20, endMs: 30 },
      { startMs: 30, endMs: 31 },
    ]);
    expect(goDuration(DAY)).toBe('24h0m0s');
  });
});
