import { describe, expect, it } from 'vitest';
import { renderRingPage, ringStatus } from './status-page';
import { ringOf } from './testing/ring-fixtures';

const NOW = Date.UTC(2025, 0, 1, 10, 0, 0);
const TIMEOUT = 60_000;

const desc = ringOf({
  'ing-b': { tokens: [0x4000_0000], zone: 'z1', heartbeatMs: NOW - 5_500 },
  'ing-a': { tokens: [0, 0x8000_0000, 0xc000_0000], zone: 'z1', heartbeatMs: NOW - 120_000 },
  'ing-c': { tokens: [], state: 'PENDING', heartbeatMs: NOW - 250 },
});

describe('ringStatus', () => {
  it('lists members by id with dskit field names, UNHEALTHY past the heartbeat timeout', () => {
    const status = ringStatus(desc, { now: NOW, heartbeatTimeoutMs: TIMEOUT });
    expect(status.now).toBe('2025-01-01T10:00:00Z');
    expect(status.shards.map((s) => [s.id, s.state, s.healthy])).toEqual([
      ['ing-a', 'UNHEALTHY', false],
      ['ing-b', 'ACTIVE', true],
      ['ing-c', 'PENDING', true],
    ]);
    expect(status.shards[1]).toEqual({
      id: 'ing-b',
      state: 'ACTIVE',
      address: 'ing-b:9095',
      timestamp: '2025-01-01T09:59:54.5Z',
      registered_timestamp: '0001-01-01T00:00:00Z',
      read_only: false,
      read_only_updated_timestamp: '0001-01-01T00:00:00Z',
      zone: 'z1',
      tokens: [0x4000_0000],
      num_tokens: 1,
      ownership: 25,
      healthy: true,
      heartbeat_age_ms: 5_500,
    });
    expect(status.shards[0].ownership).toBe(75);
  });
});

describe('renderRingPage', () => {
  const status = ringStatus(desc, { now: NOW, heartbeatTimeoutMs: TIMEOUT });

  it('shows one row per member with state, heartbeat age, tokens and ownership', () => {
    const html = renderRingPage(status, { title: 'Ingester Ring Status' });
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<title>Ingester Ring Status</title>');
    expect(html.match(/<tr[ >]/g)).toHaveLength(4); // header + 3 members
    expect(html).toContain('<td>ing-b</td>\n<td>z1</td>\n<td>ACTIVE</td>\n<td>ing-b:9095</td>');
    expect(html).toContain('<td>5s ago (09:59:54.5)</td>\n<td>1</td>\n<td>25%</td>');
    expect(html).toContain('<td>2m0s ago (09:58:00)</td>\n<td>3</td>\n<td>75%</td>');
    expect(html).toContain('<a href="?tokens=true">Show Tokens</a>');
    expect(html).not.toContain('Tokens:<br/>');
  });

  it('offers Forget only for unhealthy members, posting to the given path', () => {
    const html = renderRingPage(status, { title: 'Ring', forgetPath: '/ring' });
    expect(html).toContain('<form action="/ring" method="POST">');
    expect(html.match(/name="forget"/g)).toHaveLength(1);
    expect(html).toContain('<button name="forget" value="ing-a" type="submit">Forget</button>');
  });

  it('lists every token on request', () => {
    const html = renderRingPage(status, { title: 'Ring', showTokens: true });
    expect(html).toContain(
      '<h2>Instance: ing-a</h2>\n<p>Tokens:<br/>\n0 2147483648 3221225472</p>',
    );
    expect(html).toContain('<a href="?tokens=false">Hide Tokens</a>');
  });

  it('escapes every value taken from the ring', () => {
    const evil = ringOf({
      '<script>alert(1)</script>': {
        tokens: [1],
        zone: '"><img src=x>',
        addr: "a'&b",
        heartbeatMs: 0,
      },
    });
    const html = renderRingPage(ringStatus(evil, { now: NOW, heartbeatTimeoutMs: TIMEOUT }), {
      title: '<Ring & "co">',
    });
    expect(html).not.toMatch(/<script>|<img/);
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).toContain('value="&#60;script&#62;alert(1)&#60;/script&#62;"');
    expect(html).toContain('&#34;&#62;&#60;img src=x&#62;');
    expect(html).toContain('a&#39;&#38;b');
    expect(html).toContain('<title>&#60;Ring &#38; &#34;co&#34;&#62;</title>');
  });

  it('prints ownership as Go %.3g', () => {
    const many = ringOf({
      a: { tokens: [0, 1], heartbeatMs: NOW },
      b: { tokens: [0x5555_5555], heartbeatMs: NOW },
      c: { tokens: [0xffff_ffff], heartbeatMs: NOW },
    });
    const html = renderRingPage(ringStatus(many, { now: NOW, heartbeatTimeoutMs: TIMEOUT }), {
      title: 'Ring',
    });
    // a: 2 tokens out of 2^32 (0 wraps from 0xffffffff, then 1) = 4.66e-08 %.
    expect(html).toContain('<td>4.66e-08%</td>');
    expect(html).toContain('<td>33.3%</td>');
    expect(html).toContain('<td>66.7%</td>');
  });
});
