import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilesystemObjectClient } from '@logsvc/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { formatRuleGroup } from './format';
import { LocalRuleStore } from './local-store';
import { ObjectRuleStore } from './object-store';
import { parseRuleGroup } from './parse';
import { RulesApi } from './rules-api';
import { decodeWriteRequest, encodeWriteRequest } from './remote-write';
import { tokenForGroup } from './hash';

const GROUP = `name: errors
interval: 1m
rules:
  - alert: TooManyErrors
    expr: sum(count_over_time({app="api"} |= "error" [5m])) > 10
    for: 5m
    labels:
      severity: page
    annotations:
      summary: "{{ $value }} errors"
`;

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'ruler-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const noLimits = () => ({ maxRulesPerRuleGroup: 0, maxRuleGroupsPerTenant: 0 });

describe('rule groups', () => {
  it('refuse invalid groups with Loki messages, storing none', async () => {
    const api = new RulesApi(new LocalRuleStore(new FilesystemObjectClient(tmp())), noLimits);
    const invalid: Array<[body: string, message: string]> = [
      ['name: [', 'unable to decoded rule group'],
      ['name: g\nrules:\n  - alert: A\n    for: 5x\n    expr: x', 'unable to decoded rule group'],
      ['rules:\n  - alert: A\n    expr: vector(1)', 'group 0: Groupname must not be empty'],
      ['name: g\nrules:\n  - expr: vector(1)', "one of 'record' or 'alert' must be set"],
      ['name: g\nrules:\n  - alert: A', "field 'expr' must be set in rule"],
      [
        'name: g\nrules:\n  - alert: A\n    expr: sum(',
        "could not parse expression for alert 'A' in group 'g': parse error at line 1, col 5",
      ],
      [
        'name: g\nrules:\n  - record: "a-b"\n    expr: vector(1)',
        'invalid recording rule name: a-b',
      ],
      [
        'name: g\nrules:\n  - alert: A\n    expr: vector(1)\n    annotations:\n      s: "{{ nope }}"',
        'annotation "s": template: __alert_A:1: function "nope" not defined',
      ],
    ];
    for (const [body, message] of invalid)
      await expect(api.setGroup('t', 'ns', body), body).rejects.toThrow(message);
    await expect(api.list('t')).rejects.toThrow('no rule groups found');
  });

  it('enforce the per-tenant limits', async () => {
    const api = new RulesApi(new LocalRuleStore(new FilesystemObjectClient(tmp())), () => ({
      maxRulesPerRuleGroup: 0,
      maxRuleGroupsPerTenant: 1,
    }));
    await api.setGroup('t', 'ns', GROUP);
    await expect(api.setGroup('t', 'ns2', GROUP.replace('errors', 'other'))).rejects.toThrow(
      'per-user rule groups limit (limit: 1 actual: 2) exceeded',
    );
  });

  for (const [name, make] of [
    ['local', (d: string) => new LocalRuleStore(new FilesystemObjectClient(d))],
    ['object', (d: string) => new ObjectRuleStore(new FilesystemObjectClient(d))],
  ] as const) {
    it(`round-trip through the ${name} store`, async () => {
      const dir = tmp();
      const api = new RulesApi(make(dir), noLimits);
      await api.setGroup('t', 'ns', GROUP);
      await api.setGroup('t', 'ns', GROUP.replace('errors', 'second'));
      await api.setGroup('t', 'ns', GROUP.replace('for: 5m', 'for: 10m'));
      expect(await api.getGroup('t', 'ns', 'errors')).toContain('for: 10m');
      const listed = await api.list('t');
      expect(listed.startsWith('ns:\n    - name: errors\n')).toBe(true);
      expect(listed).toContain('    - name: second\n');
      await api.deleteGroup('t', 'ns', 'errors');
      await expect(api.getGroup('t', 'ns', 'errors')).rejects.toThrow('group does not exist');
      await api.deleteGroup('t', 'ns', 'errors'); // again: no error, as Loki's object stores
      await api.deleteNamespace('t', 'ns');
      await expect(api.deleteNamespace('t', 'ns')).rejects.toThrow(
        'group namespace does not exist',
      );
    });
  }

  it('keep the local layout of Loki: one Prometheus rule file per namespace', async () => {
    const dir = tmp();
    await new RulesApi(new LocalRuleStore(new FilesystemObjectClient(dir)), noLimits).setGroup(
      't',
      'ns',
      GROUP,
    );
    expect(readFileSync(join(dir, 't', 'ns'), 'utf8')).toBe(
      'groups:\n    - name: errors\n      interval: 1m\n      rules:\n' +
        '        - alert: TooManyErrors\n' +
        '          expr: sum(count_over_time({app="api"} |= "error" [5m])) > 10\n' +
        '          for: 5m\n          labels:\n            severity: page\n' +
        "          annotations:\n            summary: '{{ $value }} errors'\n",
    );
  });

  it('format a group as yaml.v3 does and parse it back', () => {
    const g = parseRuleGroup(GROUP);
    expect(parseRuleGroup(formatRuleGroup(g))).toEqual(g);
  });
});

describe('remote write and sharding', () => {
  it('encodes a prometheus.WriteRequest', () => {
    const body = encodeWriteRequest([
      { labels: { __name__: 'x', app: 'a' }, value: 2.5, timestampMs: 1700000000000 },
    ]);
    expect(decodeWriteRequest(body)).toEqual({
      timeseries: [
        {
          labels: [
            { name: '__name__', value: 'x' },
            { name: 'app', value: 'a' },
          ],
          samples: [{ value: 2.5, timestamp: 1700000000000 }],
        },
      ],
    });
  });

  it("hashes groups as Loki's tokenForGroup (FNV-1a of tenant/namespace/group)", () => {
    expect(tokenForGroup('user', 'ns', 'group')).toBe(2595488940);
  });
});
