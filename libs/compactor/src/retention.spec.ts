import { labelsFromRecord } from '@logsvc/api';
import { describe, expect, it } from 'vitest';
import { RetentionRules } from './retention';

const H = 3_600_000;
const l = (r: Record<string, string>) => labelsFromRecord(r);

describe('RetentionRules (Loki retention_stream semantics)', () => {
  const rules = new RetentionRules({
    retention_period: 744 * H,
    retention_stream: [
      { selector: '{namespace="dev"}', priority: 1, period: 24 * H },
      { selector: '{namespace="dev", app="api"}', priority: 1, period: 12 * H },
      { selector: '{namespace=~"dev|prod"}', priority: 5, period: 48 * H },
      { selector: '{container="nginx"}', priority: 0, period: 6 * H },
    ],
  });

  it('takes the matching rule of highest priority', () => {
    expect(rules.periodFor(l({ namespace: 'dev' }))).toBe(48 * H);
  });

  it('on equal priority keeps the shortest period', () => {
    const r = new RetentionRules({
      retention_period: 0,
      retention_stream: [
        { selector: '{a="1"}', priority: 1, period: 24 * H },
        { selector: '{b="2"}', priority: 1, period: 12 * H },
      ],
    });
    expect(r.periodFor(l({ a: '1', b: '2' }))).toBe(12 * H);
  });

  it('falls back to retention_period when no rule matches', () => {
    expect(rules.periodFor(l({ namespace: 'qa' }))).toBe(744 * H);
    expect(rules.periodFor(l({ container: 'nginx' }))).toBe(6 * H);
  });

  it('expires a chunk whose last entry is older than the period; 0 keeps forever', () => {
    const now = 1_000 * H;
    expect(rules.expired(l({ container: 'nginx' }), now - 7 * H, now)).toBe(true);
    expect(rules.expired(l({ container: 'nginx' }), now - 5 * H, now)).toBe(false);
    const off = new RetentionRules({ retention_period: 0, retention_stream: [] });
    expect(off.enabled).toBe(false);
    expect(off.expired(l({ a: 'b' }), 0, now)).toBe(false);
  });
});
