// The ruler against real components from Debian: `prometheus-alertmanager` receives the firing
// alert and then its resolution, and `prometheus` (remote-write receiver) answers a PromQL
// query for the recorded series. Every process runs on 127.0.0.1 and is stopped at the end.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@logsvc/bench/testing';
import { pushOk } from '../support/loki-api';
import { type ServerProcess, eventually, startServer } from '../support/server';

const ALERTMANAGER = '/usr/bin/prometheus-alertmanager';
const PROMETHEUS = '/usr/bin/prometheus';

const GROUP = `name: e2e-errors
interval: 1s
rules:
  - alert: E2EErrors
    expr: sum by (app) (count_over_time({app="e2e"} |= "error" [3s])) > 0
    for: 1s
    labels:
      severity: page
    annotations:
      summary: "{{ $labels.app }} logged {{ $value }} errors"
      lines: '{{ with query "sum(count_over_time({app=\\"e2e\\"}[5m]))" }}{{ . | first | value }}{{ end }} lines in 5m'
  - record: e2e:errors:count3s
    expr: sum by (app) (count_over_time({app="e2e"} |= "error" [3s]))
`;

interface AmAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  status: { state: string };
}

async function waitHttp(url: string): Promise<void> {
  await eventually(async () => ((await fetch(url)).ok ? true : undefined), url, 30_000);
}

function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

describe('ruler with a real Alertmanager and Prometheus', () => {
  const dir = mkdtempSync(join(tmpdir(), 'logsvc-ruler-e2e-'));
  let am: ChildProcess | undefined;
  let prom: ChildProcess | undefined;
  let server: ServerProcess | undefined;
  let amUrl = '';
  let promUrl = '';

  beforeAll(async () => {
    const amPort = await freePort();
    const promPort = await freePort();
    amUrl = `http://127.0.0.1:${amPort}`;
    promUrl = `http://127.0.0.1:${promPort}`;
    writeFileSync(
      join(dir, 'am.yml'),
      'route:\n  receiver: none\n  group_wait: 0s\nreceivers:\n  - name: none\n',
    );
    am = spawn(
      ALERTMANAGER,
      [
        `--config.file=${join(dir, 'am.yml')}`,
        `--storage.path=${join(dir, 'am-data')}`,
        `--web.listen-address=127.0.0.1:${amPort}`,
        '--cluster.listen-address=',
      ],
      { stdio: 'ignore' },
    );
    writeFileSync(join(dir, 'prom.yml'), 'global:\n  scrape_interval: 1m\n');
    prom = spawn(
      PROMETHEUS,
      [
        `--config.file=${join(dir, 'prom.yml')}`,
        `--storage.tsdb.path=${join(dir, 'prom-data')}`,
        `--web.listen-address=127.0.0.1:${promPort}`,
        '--web.enable-remote-write-receiver',
      ],
      { stdio: 'ignore' },
    );
    writeFileSync(
      join(dir, 'logsvc.yaml'),
      JSON.stringify({
        ruler: {
          alertmanager_url: amUrl,
          evaluation_interval: '1s',
          poll_interval: '1s',
          remote_write: {
            enabled: true,
            clients: { prom: { url: `${promUrl}/api/v1/write` } },
          },
        },
      }),
    );
    server = await startServer({ flags: [`-config.file=${join(dir, 'logsvc.yaml')}`] });
    await waitHttp(`${amUrl}/-/ready`);
    await waitHttp(`${promUrl}/-/ready`);
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await Promise.all([stopChild(am), stopChild(prom)]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the firing alert, its resolution, and the recorded series', async () => {
    const base = server!.url;
    const posted = await fetch(`${base}/loki/api/v1/rules/e2e`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/yaml' },
      body: GROUP,
    });
    expect(posted.status).toBe(202);

    // Error lines for a few seconds, so the alert goes pending and then fires.
    const pushUntil = Date.now() + 4000;
    while (Date.now() < pushUntil) {
      await pushOk(base, [
        { stream: { app: 'e2e' }, values: [[`${Date.now()}000000`, 'level=error an error']] },
      ]);
      await new Promise((r) => setTimeout(r, 250));
    }

    const firing = await eventually(
      async () => {
        const alerts = (await (await fetch(`${amUrl}/api/v2/alerts`)).json()) as AmAlert[];
        return alerts.find((a) => a.labels.alertname === 'E2EErrors');
      },
      'the alert in Alertmanager',
      20_000,
    );
    expect(firing.labels).toMatchObject({ app: 'e2e', severity: 'page' });
    expect(firing.annotations.summary).toMatch(/^e2e logged \d+ errors$/);
    // The `query` template function ran a LogQL query of its own.
    expect(firing.annotations.lines).toMatch(/^[1-9]\d* lines in 5m$/);
    expect(firing.status.state).toBe('active');

    // No more errors: after the 3s window the rule resolves and Alertmanager hears so (an
    // active alert would stay listed for 4 resend delays, minutes).
    await eventually(
      async () => {
        const alerts = (await (await fetch(`${amUrl}/api/v2/alerts`)).json()) as AmAlert[];
        return alerts.some((a) => a.labels.alertname === 'E2EErrors') ? undefined : true;
      },
      'the resolution in Alertmanager',
      30_000,
    );

    const series = await eventually(
      async () => {
        const res = await fetch(
          `${promUrl}/api/v1/query?query=${encodeURIComponent('max_over_time(e2e:errors:count3s[5m])')}`,
        );
        const body = (await res.json()) as {
          data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
        };
        return body.data.result[0];
      },
      'the recorded series in Prometheus',
      20_000,
    );
    expect(series.metric).toMatchObject({ app: 'e2e' });
    expect(Number(series.value[1])).toBeGreaterThan(0);

    const rules = (await (await fetch(`${base}/prometheus/api/v1/rules`)).json()) as {
      data: { groups: Array<{ rules: Array<{ health: string }> }> };
    };
    expect(rules.data.groups[0].rules.map((r) => r.health)).toEqual(['ok', 'ok']);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/loki_prometheus_notifications_sent_total\{[^}]*\} [1-9]/);
  }, 90_000);
});
