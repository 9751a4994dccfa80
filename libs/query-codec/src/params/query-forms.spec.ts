import { describe, expect, it } from 'vitest';
import { parseInstantQuery } from './query-params';
import { instantQueryForm, rfc3339NanoOfMs } from './query-forms';

describe('instantQueryForm', () => {
  it("is Loki's ruler form, keys in order, and parses back into the same query", () => {
    const form = instantQueryForm('sum(rate({app="a&b"}[1m])) > 2', 1_700_000_000_120, 'forward');
    expect(form).toBe(
      'direction=forward&query=sum%28rate%28%7Bapp%3D%22a%26b%22%7D%5B1m%5D%29%29+%3E+2&time=2023-11-14T22%3A13%3A20.12Z',
    );
    const params = new URLSearchParams(form);
    expect(parseInstantQuery((name) => params.get(name) ?? undefined, 0n)).toEqual({
      query: 'sum(rate({app="a&b"}[1m])) > 2',
      timeNs: 1_700_000_000_120_000_000n,
      limit: 100,
      direction: 'forward',
    });
  });

  it('writes whole seconds without a fraction', () => {
    expect(rfc3339NanoOfMs(1_700_000_000_000)).toBe('2023-11-14T22:13:20Z');
  });
});
