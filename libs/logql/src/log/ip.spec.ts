import { describe, expect, it } from 'vitest';
import { IpMatcher, parseIp } from './ip';

describe('IpMatcher', () => {
  const rows: [string, string, boolean][] = [
    ['192.168.0.1', '192.168.0.1', true],
    ['192.168.0.1', '192.168.0.10', false],
    ['192.168.0.1', 'x=192.168.0.1,', true],
    ['192.168.0.0/24', '192.168.0.255', true],
    ['192.168.0.0/24', '192.168.1.0', false],
    ['192.168.0.5-192.168.0.10', '192.168.0.7', true],
    ['192.168.0.5-192.168.0.10', '192.168.0.11', false],
    ['::1', 'addr ::1', true],
    ['::1', '::1', true],
    ['2001:db8::/32', 'from 2001:db8:85a3::8a2e:370:7334 in', true],
    ['2001:db8::/32', 'from 2001:db9::1 in', false],
    ['2001:db8::1-2001:db8::ff', '2001:db8::a', true],
    ['10.0.0.1', 'client:10.0.0.1', true],
    ['10.0.0.1', '010.0.0.1', false],
    ['10.0.0.1', '10.0.0.1.5', false],
    ['1.2.3.4', '::ffff:1.2.3.4', false],
    ['1.2.3.4', 'no address here', false],
    ['1.2.3.4', '', false],
  ];
  it.each(rows)('ip(%j) in %j → %s', (pattern, input, want) => {
    expect(new IpMatcher(pattern).matchesString(input)).toBe(want);
  });

  it.each(['', 'abc', '1.2.3', '1.2.3.4/33', '1.2.3.9-1.2.3.4', '1.2.3.4-::1', '01.2.3.4'])(
    'rejects pattern %j',
    (pattern) => {
      expect(() => new IpMatcher(pattern)).toThrow(
        `ip: invalid pattern: ${JSON.stringify(pattern)}`,
      );
    },
  );

  it('parses IPv6 forms', () => {
    expect(parseIp('::')).toEqual(new Uint8Array(16));
    expect(parseIp('1::')?.[1]).toBe(1);
    expect(parseIp('1:2:3:4:5:6:7:8')?.[15]).toBe(8);
    expect(parseIp('1:2:3:4:5:6:7:8:9')).toBeNull();
    expect(parseIp('1::2::3')).toBeNull();
  });
});
