// A restarted ruler restores its alerts' `for` state as Loki's does: it evaluates the alert's
// query again `for` before now, and an alert whose condition held then fires right away
// instead of waiting its whole `for` again. The real binary, restarted on the same data.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pushOk } from '../support/loki-api';
import { type ServerProcess, eventually, startServer } from '../support/server';

const MINUTE_MS = 60_000;

// `old` has logged errors for 12 minutes, `fresh` only now; both rules wait 10 minutes.
const GROUP = `name: restore
interval: 1s
rules:
  - alert: OldErrors
    expr: sum(count_over_time({app="old"} |= "error" [2m])) > 0
    for: 10m
    labels:
      severity: page
  - alert: FreshErrors
    expr: sum(count_over_time({app="fresh"} |= "error" [2m])) > 0
    for: 10m
`;

// Loaded first: a tenant's first groups are restored as soon as they load (Loki's ruler makes
// a rules manager per tenant then), groups it adds later are not.
const FIRST_GROUP = `name: first
interval: 1s
rules:
  - alert: Never
    expr: sum(count_over_time({app="none"}[1m])) > 0
`;

interface ApiAlert {
  labels: Record<string, string>;
  state: string;
  activeAt: string;
}

async function alerts(server: ServerProcess): Promise<Map<string, ApiAlert>> {
  const res = await fetch(`${server.url}/prometheus/api/v1/alerts`);
  const body = (await res.json()) as { data: { alerts: ApiAlert[] } };
  return new Map(body.data.alerts.map((a) => [a.labels.alertname, a]));
}

async function postGroup(server: ServerProcess, group: string): Promise<void> {
  const res = await fetch(`${server.url}/loki/api/v1/rules/ns`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/yaml' },
    body: group,
  });
  expect(res.status).toBe(202);
}

async function push(server: ServerProcess, app: string, fromMs: number, toMs: number) {
  const values: [string, string][] = [];
  for (let t = fromMs; t <= toMs; t += 20_000) values.push([`${t}000000`, 'level=error boom']);
  await pushOk(server.url, [{ stream: { app }, values }]);
}

describe("ruler: alerts' for state after a restart", () => {
  const dir = mkdtempSync(join(tmpdir(), 'logsvc-for-state-'));
  const flags = [
    `-config.file=${join(dir, 'logsvc.yaml')}`,
    '-ruler.evaluation-interval=1s',
    '-ruler.poll-interval=1s',
  ];
  writeFileSync(join(dir, 'logsvc.yaml'), 'ruler:\n  evaluation_interval: 1s\n');
  let server: ServerProcess | undefined;

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fires an alert pending since before the restart at once, and leaves a new one pending', async () => {
    server = await startServer({ dataDir: join(dir, 'data'), flags });
    const now = Date.now();
    await push(server, 'old', now - 12 * MINUTE_MS, now);
    await push(server, 'fresh', now - 5_000, now);
    await postGroup(server, FIRST_GROUP);
    await eventually(async () => {
      const res = await fetch(`${server!.url}/prometheus/api/v1/rules`);
      const body = (await res.json()) as { data: { groups: unknown[] } };
      return body.data.groups.length === 1 ? true : undefined;
    }, 'the first group loaded');
    await postGroup(server, GROUP);
    // Added to a tenant that had rules: both alerts wait their 10 minutes.
    await eventually(
      async () => ((await alerts(server!)).size === 2 ? true : undefined),
      'both alerts pending',
    );
    await new Promise((r) => setTimeout(r, 3000));
    expect([...(await alerts(server)).values()].map((a) => a.state)).toEqual([
      'pending',
      'pending',
    ]);

    await server.stop();
    server = await startServer({ dataDir: join(dir, 'data'), flags });
    const restarted = Date.now();
    await push(server, 'fresh', restarted, restarted);
    const firing = await eventually(
      async () => {
        const old = (await alerts(server!)).get('OldErrors');
        return old?.state === 'firing' ? old : undefined;
      },
      'OldErrors firing after the restart',
      15_000,
    );
    // Active since 10 minutes before the restore, to the second.
    const activeAt = Date.parse(firing.activeAt);
    expect(activeAt).toBeLessThan(restarted - 9 * MINUTE_MS);
    expect(activeAt).toBeGreaterThan(restarted - 11 * MINUTE_MS);
    expect(firing.labels).toMatchObject({ severity: 'page' });
    // `fresh` had no errors 10 minutes ago: it keeps waiting.
    await new Promise((r) => setTimeout(r, 2000));
    expect((await alerts(server)).get('FreshErrors')?.state).toBe('pending');
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(
      /loki_ruler_memory_for_state_evaluations_total\{[^}]*status="success"[^}]*\} 2/,
    );
  }, 90_000);
});
