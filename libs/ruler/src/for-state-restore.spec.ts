import { describe, expect, it } from 'vitest';
import { Group, type GroupDeps } from './group';
import { RuleManager } from './manager';
import { NO_METRICS } from './metrics';
import type { Rule, RuleGroup } from './model';
import type { Sample } from './sample';
import { FakeClock } from './testing/fake-clock';
import { testGroupDeps } from './testing/group-deps';

const MINUTE = 60_000;
const T0 = 1_700_000_000_000;

const alert = (forMs: number): Rule => ({
  alert: 'Errors',
  expr: 'sum by (app) (count_over_time({app=~".+"} |= "error" [1m])) > 0',
  forMs,
  keepFiringForMs: 0,
  labels: { severity: 'page', team: '{{ $labels.app }}-team' },
  annotations: {},
});

/**
 * A query answering as logs would: `old` has errored for an hour, `fresh` only in the last two
 * minutes before `nowMs`. Records the times it was asked for.
 */
function logsLike(nowMs: () => number, asked: number[]) {
  return async (_tenant: string, _expr: string, tsMs: number): Promise<Sample[]> => {
    asked.push(tsMs);
    const out: Sample[] = [];
    if (tsMs > nowMs() - 60 * MINUTE) out.push({ labels: { app: 'old' }, value: 3 });
    if (tsMs > nowMs() - 2 * MINUTE) out.push({ labels: { app: 'fresh' }, value: 1 });
    return out;
  };
}

function deps(clock: FakeClock, asked: number[], counted: boolean[] = []): GroupDeps {
  return testGroupDeps({
    query: logsLike(() => clock.now(), asked),
    metrics: { ...NO_METRICS, forStateEvaluated: (_t, ok) => void counted.push(ok) },
    now: () => clock.now(),
    resendDelayMs: MINUTE,
  });
}

function group(rule: Rule, d: GroupDeps): Group {
  const g = new Group(
    't',
    'ns',
    { name: 'g', intervalMs: MINUTE, limit: 0, rules: [rule] },
    MINUTE,
    d,
  );
  g.restoreForState = true;
  return g;
}

const states = (g: Group) =>
  Object.fromEntries(
    (g.rules[0].alerting?.activeAlerts() ?? []).map((a) => [a.labels.app, a.state]),
  );

describe("restoring alerts' for state after a start (Loki's ruler MemStore)", () => {
  it('after the second evaluation, an alert whose series was there `for` ago fires next', async () => {
    const clock = new FakeClock(T0);
    const asked: number[] = [];
    const counted: boolean[] = [];
    const g = group(alert(15 * MINUTE), deps(clock, asked, counted));
    await g.evaluate(T0);
    await clock.advance(MINUTE);
    await g.evaluate(T0 + MINUTE);
    // The second evaluation asked the query again, 15 minutes back.
    expect(asked).toEqual([T0, T0 + MINUTE, T0 + MINUTE - 15 * MINUTE]);
    expect(counted).toEqual([true]);
    const old = g.rules[0].alerting!.activeAlerts().find((a) => a.labels.app === 'old');
    expect(old).toMatchObject({ state: 'pending', activeAtMs: T0 + MINUTE - 15 * MINUTE });
    expect(old?.labels.team).toBe('old-team');
    await clock.advance(MINUTE);
    await g.evaluate(T0 + 2 * MINUTE);
    // `fresh` was not there 15 minutes ago: it waits its whole `for`.
    expect(states(g)).toEqual({ old: 'firing', fresh: 'pending' });
    // Restored once only.
    await clock.advance(MINUTE);
    await g.evaluate(T0 + 3 * MINUTE);
    expect(asked).toHaveLength(5);
  });

  it('restores the pending alerts of a rule that has a firing one as well', async () => {
    const clock = new FakeClock(T0);
    const a = { labels: { app: 'a' }, value: 1 };
    const b = { labels: { app: 'b' }, value: 1 };
    const query = async (_t: string, _e: string, tsMs: number) => (tsMs === T0 ? [a] : [a, b]);
    const g = group(alert(15 * MINUTE), { ...deps(clock, []), query });
    await g.evaluate(T0);
    await clock.advance(15 * MINUTE + 5000);
    // A slow second evaluation: `a` fires, `b` is new and pending; then the restore.
    await g.evaluate(T0 + 15 * MINUTE);
    expect(states(g)).toEqual({ a: 'firing', b: 'pending' });
    await g.evaluate(T0 + 16 * MINUTE);
    expect(states(g)).toEqual({ a: 'firing', b: 'firing' });
  });

  it('leaves rules whose `for` is under the grace period waiting, and groups loaded later', async () => {
    const clock = new FakeClock(T0);
    const asked: number[] = [];
    const short = group(alert(5 * MINUTE), deps(clock, asked));
    const later = group(alert(15 * MINUTE), { ...deps(clock, asked), forGracePeriodMs: MINUTE });
    later.restoreForState = false;
    for (const g of [short, later]) {
      await g.evaluate(T0);
      await g.evaluate(T0 + MINUTE);
      await g.evaluate(T0 + 2 * MINUTE);
      expect(states(g)).toEqual({ old: 'pending', fresh: 'pending' });
    }
    expect(asked.every((ts) => ts >= T0)).toBe(true);
    // With a grace period under the rule's `for`, the rule is restored.
    const graced = group(alert(5 * MINUTE), { ...deps(clock, asked), forGracePeriodMs: MINUTE });
    await graced.evaluate(T0);
    await graced.evaluate(T0 + MINUTE);
    await graced.evaluate(T0 + 2 * MINUTE);
    expect(states(graced)).toEqual({ old: 'firing', fresh: 'pending' });
  });

  it("restores the groups of a tenant's first load only, as Loki's manager per tenant", async () => {
    const clock = new FakeClock(T0);
    const manager = new RuleManager({ ...deps(clock, []), clock, defaultIntervalMs: MINUTE });
    const g = (name: string): RuleGroup => ({
      name,
      intervalMs: MINUTE,
      limit: 0,
      rules: [alert(15 * MINUTE)],
    });
    await manager.sync([{ tenant: 'a', namespace: 'ns', group: g('first') }]);
    await manager.sync([
      { tenant: 'a', namespace: 'ns', group: g('first') },
      { tenant: 'a', namespace: 'ns', group: g('added') },
      { tenant: 'b', namespace: 'ns', group: g('new-tenant') },
    ]);
    const restoring = (tenant: string) =>
      manager.groups(tenant).map((x) => [x.group.name, x.restoreForState]);
    expect(restoring('a')).toEqual([
      ['added', false],
      ['first', true],
    ]);
    expect(restoring('b')).toEqual([['new-tenant', true]]);
    await manager.stop();
  });
});
