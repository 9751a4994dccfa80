import { describe, expect, it } from 'vitest';
import { Group } from './group';
import type { Rule } from './model';
import type { Sample } from './sample';
import { checkAlertTemplate, expandAlertTemplate } from './template';
import { testGroupDeps } from './testing/group-deps';

const data = {
  labels: { app: 'api', instance: 'web-1.example.com:8080' },
  externalLabels: {},
  externalURL: 'https://logs.example.com/prefix',
  value: 3,
};
const expand = (text: string) => expandAlertTemplate('A', text, data);

describe("Prometheus' template functions", () => {
  it('are all accepted in rules, as Loki accepts them', () => {
    for (const text of [
      '{{ with query "sum(rate({app=\\"a\\"}[1m]))" }}{{ . | first | value | humanize }}{{ end }}',
      '{{ range query "x" | sortByLabel "pod" }}{{ label "pod" . }} {{ strvalue . }}{{ end }}',
      '{{ template "t" (args 1 "two") }}{{ define "t" }}{{ .arg0 }}{{ end }}',
      '{{ graphLink "up" }} {{ tableLink "up" }} {{ externalURL }} {{ pathPrefix }}',
      '{{ toTime 0 }} {{ parseDuration "1h" }} {{ stripDomain "a.b:1" }}',
    ]) {
      expect(() => checkAlertTemplate('A', text)).not.toThrow();
    }
  });

  it('work as Prometheus writes them', () => {
    expect(expand('{{ graphLink "rate(x[5m]) > 1" }}')).toBe(
      '/graph?g0.expr=rate%28x%5B5m%5D%29+%3E+1&g0.tab=0',
    );
    expect(expand('{{ tableLink "up" }}')).toBe('/graph?g0.expr=up&g0.tab=1');
    expect(expand('{{ externalURL }} {{ pathPrefix }}')).toBe(
      'https://logs.example.com/prefix /prefix',
    );
    expect(expand('{{ stripDomain $labels.instance }} {{ stripDomain "10.0.0.1:80" }}')).toBe(
      'web-1:8080 10.0.0.1:80',
    );
    expect(expand('{{ parseDuration "1h30m" }} {{ toTime 1700000000.5 }}')).toBe(
      '5400 2023-11-14 22:13:20.5 +0000 UTC',
    );
    expect(expand('{{ template "t" (args 1 "two") }}{{ define "t" }}{{ .arg1 }}{{ end }}')).toBe(
      'two',
    );
    expect(expand('{{ parseDuration "soon" }}')).toMatch(
      /^<error expanding template: .*error calling parseDuration: not a valid duration string: "soon">$/,
    );
  });
});

describe('query in alert templates', () => {
  const rule: Rule = {
    alert: 'Errors',
    expr: 'sum by (app) (count_over_time({app=~".+"} |= "error" [1m])) > 0',
    forMs: 0,
    keepFiringForMs: 0,
    labels: {},
    annotations: {
      share:
        '{{ with query (printf "sum(count_over_time({app=%q}[1m]))" $labels.app) }}{{ . | first | value | humanize }}{{ end }} lines',
      pods: '{{ range query "pods" | sortByLabel "pod" }}{{ .Labels.pod }}={{ .Value }} {{ end }}',
      broken: '{{ query "fails" }}',
    },
  };

  it('runs the queries the templates ask for at the evaluation time, its own labels included', async () => {
    const asked: string[] = [];
    const query = async (_t: string, expr: string, tsMs: number): Promise<Sample[]> => {
      asked.push(`${tsMs} ${expr}`);
      if (expr === rule.expr) return [{ labels: { app: 'api' }, value: 2 }];
      if (expr === 'pods')
        return [
          { labels: { pod: 'b' }, value: 2 },
          { labels: { pod: 'a' }, value: 1 },
        ];
      if (expr === 'fails') throw new Error('rule evaluation failed: boom');
      return [{ labels: {}, value: 1234 }];
    };
    const group = new Group(
      't',
      'ns',
      { name: 'g', intervalMs: 60_000, limit: 0, rules: [rule] },
      60_000,
      testGroupDeps({ query }),
    );
    await group.evaluate(120_000);
    const [alert] = group.rules[0].alerting!.activeAlerts();
    expect(alert.annotations.share).toBe('1.234k lines');
    expect(alert.annotations.pods).toBe('a=1 b=2 ');
    expect(alert.annotations.broken).toMatch(
      /^<error expanding template: .*error calling query: rule evaluation failed: boom>$/,
    );
    expect(asked.sort()).toEqual(
      [
        `120000 ${rule.expr}`,
        '120000 fails',
        '120000 pods',
        '120000 sum(count_over_time({app="api"}[1m]))',
      ].sort(),
    );
  });
});
