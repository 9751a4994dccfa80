import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MainRun, assertBuilt, freePort, runMain, waitReady } from './binary';

describe('the built server binary', () => {
  const dirs: string[] = [];
  const runs: MainRun[] = [];
  beforeAll(() => {
    assertBuilt();
  });
  afterEach(() => {
    for (const r of runs.splice(0)) if (r.child.exitCode === null) r.child.kill('SIGKILL');
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('starts with Loki flags, becomes ready, and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'logsvc-main-'));
    dirs.push(dataDir);
    const r = runMain([
      `-server.http-listen-port=${port}`,
      '-server.http-listen-address=127.0.0.1',
      `-common.path-prefix=${dataDir}`,
      '-log.level=info',
    ]);
    runs.push(r);
    const url = `http://127.0.0.1:${port}`;
    await waitReady(url, r);
    expect(await (await fetch(`${url}/services`)).text()).toContain('ingester => Running\n');

    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    expect(r.stderr()).toContain('"msg":"stopped"');
  });

  it('exits 0 on a SIGTERM that arrives while the modules are still being built', async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'logsvc-main-'));
    dirs.push(dataDir);
    const r = runMain([
      `-server.http-listen-port=${port}`,
      '-server.http-listen-address=127.0.0.1',
      `-common.path-prefix=${dataDir}`,
      // Nest logs its route mapping at debug level while the application is being built.
      '-log.level=debug',
    ]);
    runs.push(r);
    await new Promise<void>((res) => r.child.stderr!.once('data', () => res()));
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    expect(r.stderr()).toContain('"reason":"SIGTERM"');
    expect(r.stderr()).toContain('"msg":"stopped"');
  });

  it('exits 1 with a message naming a bad flag', async () => {
    const r = runMain(['-server.http-listen-port=abc']);
    runs.push(r);
    expect(await r.exited).toBe(1);
    expect(r.stderr()).toBe(
      'error: invalid value "abc" for flag -server.http-listen-port: expected an integer\n',
    );
  });

  it('exits 1 naming the key of a TLS file it cannot read', async () => {
    const r = runMain([
      '-server.http-listen-port=0',
      '-ingester.client.tls-enabled',
      '-ingester.client.tls-ca-path=/nonexistent/ca.crt',
    ]);
    runs.push(r);
    expect(await r.exited).toBe(1);
    expect(r.stderr()).toContain(
      'error: config error: ingester_client.grpc_client_config: cannot read the TLS CA file /nonexistent/ca.crt',
    );
  });

  it('exits 1 for an unknown target', async () => {
    const r = runMain(['-target=everything', '-server.http-listen-port=0']);
    runs.push(r);
    expect(await r.exited).toBe(1);
    expect(r.stderr()).toContain('error: unrecognised target: "everything"');
  });

  it('exits 1 for a query frontend alone, which has no querier to reach', async () => {
    const r = runMain(['-target=query-frontend', '-server.http-listen-port=0']);
    runs.push(r);
    expect(await r.exited).toBe(1);
    expect(r.stderr()).toMatch(
      /^error: -target=query-frontend: the query frontend has no queriers to reach: with the in-memory ring/,
    );
  });

  it('exits 1 for a distributor alone, which has no ingester to reach', async () => {
    const r = runMain(['-target=distributor', '-server.http-listen-port=0']);
    runs.push(r);
    expect(await r.exited).toBe(1);
    expect(r.stderr()).toMatch(
      /^error: -target=distributor: the distributor has no ingesters to reach: with the in-memory ring/,
    );
  });
});
