import { describe, expect, it } from 'vitest';
import { AlertingRule, RESOLVED_RETENTION_MS } from './alerting-rule';
import { Group } from './group';
import { NO_METRICS } from './metrics';
import type { Rule } from './model';
import type { Sample } from './sample';
import { GroupScheduler } from './scheduler';
import { FakeClock } from './testing/fake-clock';
import { testGroupDeps } from './testing/group-deps';

const rule: Rule = {
  alert: 'HighErrors',
  expr: 'sum by (app) (count_over_time({app="api"} |= "error" [1m])) > 1',
  forMs: 2 * 60_000,
  keepFiringForMs: 0,
  labels: { severity: 'page' },
  annotations: {
    summary: '{{ $labels.app }} has {{ $value }} errors',
    value: '{{ humanize $value }}',
  },
};
const ctx = { externalLabels: {}, externalURL: '' };
const firing: Sample[] = [{ labels: { app: 'api' }, value: 1234 }];

describe('AlertingRule', () => {
  it('goes pending, fires after `for`, resolves, and is forgotten after the retention', () => {
    const r = new AlertingRule(rule, ctx);
    r.update(firing, 0, 0);
    expect(r.state()).toBe('pending');
    const [a] = r.activeAlerts();
    expect(a.labels).toEqual({ alertname: 'HighErrors', app: 'api', severity: 'page' });
    expect(a.annotations).toEqual({ summary: 'api has 1234 errors', value: '1.234k' });
    expect(r.alertsToSend(0, 60_000, 60_000)).toEqual([]); // pending alerts are not sent
    r.update(firing, 60_000, 0);
    expect(r.state()).toBe('pending');
    r.update(firing, 120_000, 0);
    expect(r.state()).toBe('firing');
    const sent = r.alertsToSend(120_000, 60_000, 60_000);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ firedAtMs: 120_000, validUntilMs: 120_000 + 4 * 60_000 });
    // Not resent before the resend delay has passed.
    r.update(firing, 150_000, 0);
    expect(r.alertsToSend(150_000, 60_000, 60_000)).toEqual([]);
    r.update([], 180_000, 0);
    expect(r.state()).toBe('inactive');
    expect(r.activeAlerts()).toEqual([]);
    const resolved = r.alertsToSend(180_000, 60_000, 60_000);
    expect(resolved).toHaveLength(1);
    expect(resolved[0]).toMatchObject({ state: 'inactive', resolvedAtMs: 180_000 });
    r.update([], 180_000 + RESOLVED_RETENTION_MS, 0);
    expect(r.active.size).toBe(1);
    r.update([], 180_001 + RESOLVED_RETENTION_MS, 0);
    expect(r.active.size).toBe(0);
  });

  it('drops a pending alert that disappears, and restarts `for` when it comes back', () => {
    const r = new AlertingRule(rule, ctx);
    r.update(firing, 0, 0);
    r.update([], 60_000, 0);
    expect(r.active.size).toBe(0);
    r.update(firing, 120_000, 0);
    r.update(firing, 180_000, 0);
    expect(r.state()).toBe('pending');
  });

  it('keeps firing for keep_firing_for after the condition clears', () => {
    const r = new AlertingRule({ ...rule, forMs: 0, keepFiringForMs: 60_000 }, ctx);
    r.update(firing, 0, 0);
    expect(r.state()).toBe('firing');
    r.update([], 30_000, 0);
    expect(r.state()).toBe('firing');
    r.update([], 90_000, 0);
    expect(r.state()).toBe('inactive');
  });

  it('refuses duplicate label sets and enforces the limit', () => {
    const r = new AlertingRule({ ...rule, labels: { app: 'same' } }, ctx);
    expect(() =>
      r.update(
        [
          { labels: { app: 'a' }, value: 1 },
          { labels: { app: 'b' }, value: 1 },
        ],
        0,
        0,
      ),
    ).toThrow('vector contains metrics with the same labelset after applying alert labels');
    const l = new AlertingRule(rule, ctx);
    expect(() =>
      l.update(
        [
          { labels: { app: 'a' }, value: 1 },
          { labels: { app: 'b' }, value: 1 },
        ],
        0,
        1,
      ),
    ).toThrow('exceeded limit of 1 with 2 alerts');
  });
});

describe('Group on a fake clock', () => {
  it('evaluates every interval, notifies firing then resolved, and counts missed iterations', async () => {
    const clock = new FakeClock(1_000_000);
    let samples = firing;
    let slow = 0;
    const sent: Array<{ state: string; at: number }> = [];
    let missed = 0;
    const deps = {
      query: async () => {
        if (slow > 0) {
          await clock.advance(slow);
          slow = 0;
        }
        return samples;
      },
      notify: (_t: string, _e: string, alerts: Array<{ state: string }>) =>
        sent.push(...alerts.map((a) => ({ state: a.state, at: clock.now() }))),
      metrics: {
        ...NO_METRICS,
        iterationsMissed: (_t: string, _g: string, n: number) => (missed += n),
      },
      now: () => clock.now(),
    };
    const group = new Group(
      'team-a',
      'ns',
      { name: 'g', intervalMs: 60_000, limit: 0, rules: [rule] },
      60_000,
      testGroupDeps(deps),
    );
    const scheduler = new GroupScheduler(group, clock, 0, deps.metrics);
    scheduler.start();
    await clock.advance(60_000); // first evaluation: pending
    expect(group.rules[0].alerting?.state()).toBe('pending');
    await clock.advance(120_000); // `for` has passed: firing, sent
    expect(group.rules[0].alerting?.state()).toBe('firing');
    expect(sent.map((s) => s.state)).toEqual(['firing']);
    samples = [];
    await clock.advance(60_000);
    expect(sent.map((s) => s.state)).toEqual(['firing', 'inactive']);
    expect(group.rules[0].health).toBe('ok');
    expect(missed).toBe(0);
    // This evaluation takes two and a half intervals: the slot after it is missed, and the
    // next one runs late at its own timestamp (Prometheus: since/interval - 1).
    slow = 150_000;
    await clock.advance(60_000);
    await clock.advance(200_000);
    expect(missed).toBe(1);
    await scheduler.stop();
  });

  it('records the error of a failing query as the rule health', async () => {
    const group = new Group(
      't',
      'ns',
      { name: 'g', intervalMs: 1000, limit: 0, rules: [rule] },
      1000,
      testGroupDeps({ query: () => Promise.reject(new Error('rule evaluation failed: boom')) }),
    );
    await group.evaluate(1000);
    expect(group.rules[0]).toMatchObject({
      health: 'err',
      lastError: 'rule evaluation failed: boom',
    });
  });
});
