import { describe, expect, it } from 'vitest';
import { checkRule, ruleStatus, selectorQuery, type RuleResource } from './rules';

const resource = (spec: unknown, status?: RuleResource['status']): RuleResource => ({
  metadata: { name: 'errors', namespace: 'team-a', generation: 2 },
  spec,
  ...(status ? { status } : {}),
});

const recording = {
  tenant: 'tenant-1',
  groups: [
    {
      name: 'rates',
      interval: '1m',
      rules: [{ record: 'app:errors:rate1m', expr: 'sum(rate({app="web"} |= "error" [1m]))' }],
    },
  ],
};

describe('checkRule', () => {
  it('formats a valid resource as the rule file the ruler reads', () => {
    const verdict = checkRule(resource(recording));
    expect(verdict).toEqual({
      ok: true,
      rule: {
        namespace: 'team-a',
        name: 'errors',
        tenant: 'tenant-1',
        file: expect.stringContaining('record: app:errors:rate1m'),
      },
    });
  });

  it.each([
    [
      {
        ...recording,
        groups: [{ name: 'g', rules: [{ alert: 'A', expr: 'sum(rate({app="web"}' }] }],
      },
      "spec.groups: could not parse expression for alert 'A' in group 'g'",
    ],
    [
      {
        ...recording,
        groups: [{ name: 'g', rules: [{ record: 'bad name', expr: 'sum(rate({a="b"}[1m]))' }] }],
      },
      'spec.groups: invalid recording rule name: bad name',
    ],
    [
      { ...recording, groups: [recording.groups[0], recording.groups[0]] },
      'groupname: "rates" is repeated in the same file',
    ],
    [{ ...recording, tenant: '../x' }, 'spec.tenant: "../x" is not a tenant ID'],
    [{ groups: recording.groups }, 'spec.tenant: is required'],
    [
      { ...recording, groups: [{ name: 'g', rules: [{ record: 'r', expr: 'x', for: 'soon' }] }] },
      'spec.groups[0].rules[0].for: expected a duration',
    ],
  ])('refuses %j with a message naming what is wrong', (spec, message) => {
    const verdict = checkRule(resource(spec));
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.message).toContain(message);
  });
});

describe('ruleStatus', () => {
  const now = new Date('2026-12-02T02:00:00Z');

  it('says Valid or InvalidRules, keeping the transition time while the status holds', () => {
    const valid = ruleStatus(resource(recording), checkRule(resource(recording)), now);
    expect(valid).toEqual({
      observedGeneration: 2,
      conditions: [
        {
          type: 'Valid',
          status: 'True',
          reason: 'Valid',
          message: "the rules parse and pass the ruler's checks",
          lastTransitionTime: '2026-12-02T02:00:00.000Z',
          observedGeneration: 2,
        },
      ],
    });
    const later = new Date('2026-12-02T03:00:00Z');
    expect(ruleStatus(resource(recording, valid), checkRule(resource(recording)), later)).toEqual(
      valid,
    );
    const invalid = ruleStatus(
      resource(recording, valid),
      { ok: false, message: 'spec.groups: x' },
      later,
    );
    expect(invalid.conditions![0]).toMatchObject({
      status: 'False',
      reason: 'InvalidRules',
      message: 'spec.groups: x',
      lastTransitionTime: '2026-12-02T03:00:00.000Z',
    });
  });
});

describe('selectorQuery', () => {
  it("writes matchLabels and matchExpressions in the API server's labelSelector syntax", () => {
    expect(selectorQuery({})).toBe('');
    expect(selectorQuery(undefined)).toBe('');
    const query = selectorQuery({
      matchLabels: { team: 'a', app: 'web' },
      matchExpressions: [
        { key: 'stage', operator: 'In', values: ['prod', 'canary'] },
        { key: 'tier', operator: 'NotIn', values: ['dev'] },
        { key: 'owner', operator: 'Exists' },
        { key: 'draft', operator: 'DoesNotExist' },
      ],
    });
    expect(decodeURIComponent(query)).toBe(
      '?labelSelector=app=web,team=a,stage in (canary,prod),tier notin (dev),owner,!draft',
    );
  });
});
