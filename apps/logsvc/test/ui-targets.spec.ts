import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RING_PAGES, type UiFeatures } from '@logsvc/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MainRun, assertBuilt, freePort, runMain, waitReady } from './binary';

// The built binary with the targets the operator renders for a Microservices LogService's
// admin UI (`ruler,ui`, or `compactor,ui` without a ruler): every request a page of the UI makes
// in such a process, as its features decide, answers 200; what the features rule out is not
// served there (the pages do not ask it).

const json = { accept: 'application/json', 'x-scope-orgid': 'team-a' };

/** The requests the pages make whatever the features say (overview, node page, config, ...). */
const ALWAYS = [
  '/ui/',
  '/ui/rules',
  '/ui/api/features',
  '/ui/api/overview',
  '/ui/api/tenants',
  '/ui/api/overrides',
  '/ui/api/config-file',
  '/config',
  '/config?mode=diff',
  '/config?mode=defaults',
  '/loki/api/v1/status/buildinfo',
  '/loki/api/v1/format_query?query=%7Bapp%3D%22web%22%7D',
  '/metrics',
  '/services',
  '/ready',
  '/log_level',
];
const RULES = ['/ui/api/rules', '/prometheus/api/v1/rules'];
const DELETES = ['/loki/api/v1/delete', '/logsvc/api/v1/delete/progress'];
const QUERIES = [
  '/loki/api/v1/query_range?query=%7Bapp%3D%22web%22%7D',
  '/loki/api/v1/query?query=count_over_time(%7Bapp%3D%22web%22%7D%5B1m%5D)',
];

describe.each([
  { target: 'ruler,ui', rules: true, deletes: false },
  { target: 'compactor,ui', rules: false, deletes: true },
])('the admin UI of -target=$target', ({ target, rules, deletes }) => {
  let dir: string;
  let proc: MainRun | undefined;
  let url: string;

  beforeAll(async () => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'logsvc-ui-target-'));
    const port = await freePort();
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      [
        'server:',
        '  http_listen_address: 127.0.0.1',
        '  http_listen_port: ${HTTP_PORT}',
        '  grpc_listen_address: 127.0.0.1',
        '  grpc_listen_port: 0',
        '  log_level: warn',
        'common:',
        `  path_prefix: ${dir}/data`,
        'compactor:',
        '  retention_enabled: true',
        '',
      ].join('\n'),
    );
    proc = runMain([`-config.file=${config}`, '-config.expand-env=true', `-target=${target}`], {
      ...process.env,
      HTTP_PORT: String(port),
    });
    url = `http://127.0.0.1:${port}`;
    await waitReady(url, proc);
  }, 120_000);

  afterAll(async () => {
    if (proc && proc.child.exitCode === null) {
      proc.child.kill('SIGTERM');
      await proc.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('says what it serves: its rings, the rules or deletes of its component, no queries', async () => {
    const features = (await (await fetch(`${url}/ui/api/features`)).json()) as UiFeatures;
    expect(features).toMatchObject({ rules, deletes, queries: false, config_file: true });
    expect(features.rings).toContain(rules ? 'ruler' : 'compactor');
  });

  it('answers 200 to every request the pages make under those features', async () => {
    const features = (await (await fetch(`${url}/ui/api/features`)).json()) as UiFeatures;
    const asked = [
      ...ALWAYS,
      ...RING_PAGES.filter((p) => features.rings.includes(p.ring)).map((p) => p.path),
      ...(features.rules ? RULES : []),
      ...(features.deletes ? DELETES : []),
      ...(features.queries ? QUERIES : []),
    ];
    for (const path of asked) {
      const res = await fetch(url + path, { headers: json });
      expect(res.status, path).toBe(200);
    }
  });

  it('does not serve what its features rule out', async () => {
    const features = (await (await fetch(`${url}/ui/api/features`)).json()) as UiFeatures;
    const unasked = [
      ...RING_PAGES.filter((p) => !features.rings.includes(p.ring)).map((p) => p.path),
      ...(features.rules ? [] : RULES),
      ...(features.deletes ? [] : DELETES),
      ...QUERIES,
      // Outside Kubernetes: no LogService file (features.logservice is false).
      '/ui/api/logservice',
    ];
    expect(features.logservice).toBe(false);
    for (const path of unasked) {
      const res = await fetch(url + path, { headers: json });
      expect(res.status, path).toBe(404);
    }
  });
});
