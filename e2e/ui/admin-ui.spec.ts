import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOGSERVICE_FILE_ENV, type LogServiceView, type RingStatus } from '@logsvc/api';
import { parseConfig, resolveRingConfig } from '@logsvc/config';
import { parseSpec } from '@logsvc/operator-api';
import { renderLogServiceFile } from '@logsvc/operator-render';
import { type Kv, createKv, decodeRing, encodeRing, withInstance } from '@logsvc/ring';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EtcdCluster, type Member } from '../support/cluster';
import { type FakeApiServer, startFakeApiServer } from '../support/fake-api-server';
import { pushOk } from '../support/loki-api';
import { type ServerProcess, eventually, startServer } from '../support/server';
import {
  type BrowserPage,
  type ConsoleErrors,
  openPage,
  screenshotDir,
  screenshots,
} from './browser';

/** The KV key where every process writes its report (as the server's InstanceDirectory). */
const INSTANCES_KEY = 'logsvc/instances';
const NOW_NS = () => BigInt(Date.now()) * 1_000_000n;
/** Lines pushed before the tests: ten `error` lines among thirty. */
const ERROR_LINES = 10;

/** The LogService file the operator would write for the first process, as in a pod. */
function logServiceFile(): string {
  const parsed = parseSpec({
    version: '0.1.0',
    mode: 'SingleBinary',
    authEnabled: false,
    replicationFactor: 1,
    retention: { enabled: true },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const owner = { name: 'logs', namespace: 'team-a', uid: 'e2e', generation: 2 };
  return renderLogServiceFile(owner, parsed.spec);
}

/** The LogService as the API server holds it: rolling its pods, one replaced now. */
const ROLLING_LOGSERVICE = {
  apiVersion: 'logsvc.io/v1alpha1',
  kind: 'LogService',
  metadata: { name: 'logs', namespace: 'team-a', generation: 2 },
  status: {
    observedGeneration: 2,
    lastObservedTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    version: '0.1.0',
    conditions: [
      {
        type: 'Ready',
        status: 'False',
        reason: 'ComponentsNotReady',
        message: 'logs-single-binary: 0/1 ready',
        lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      },
      {
        type: 'Progressing',
        status: 'True',
        reason: 'ReplacingPod',
        message: 'logs-single-binary-0 runs an old revision: replacing it',
        lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      },
    ],
    components: {
      'single-binary': { kind: 'StatefulSet', replicas: 1, readyReplicas: 0, updatedReplicas: 0 },
    },
    rollout: {
      phase: 'Replacing',
      pod: 'logs-single-binary-0',
      message: 'logs-single-binary-0 runs an old revision: replacing it',
    },
  },
};

async function push(url: string, lines: Array<[string, Record<string, string>?]>): Promise<void> {
  const base = NOW_NS() - BigInt(lines.length) * 1_000_000n;
  const values = lines.map(([line, meta], i) => {
    const ts = String(base + BigInt(i) * 1_000_000n);
    return meta ? [ts, line, meta] : [ts, line];
  });
  await pushOk(url, [{ stream: { app: 'web' }, values }]);
}

describe('the admin UI in chromium, against a two-process cluster', () => {
  let cluster: EtcdCluster;
  let main: Member;
  let reader: Member;
  let browser: Browser;
  let page: Page;
  let kv: Kv;
  let apiServer: FakeApiServer | undefined;
  let shots: string;
  let errors: ConsoleErrors;
  const url = () => main.process.url;

  beforeAll(async () => {
    cluster = await EtcdCluster.start({
      replicationFactor: 1,
      config: {
        compactor: {
          retention_enabled: true,
          compaction_interval: '1s',
          delete_request_cancel_period: '1h',
        },
        ruler: { evaluation_interval: '1s', poll_interval: '1s' },
        // The UI changes the other process's log level, flush and prepare_shutdown.
        ui: { cluster_actions: true },
      },
    });
    // As if the operator had started it: the UI offers its LogService view.
    const logService = join(cluster.root, 'logservice.yaml');
    writeFileSync(logService, logServiceFile());
    // And the API server it reads the LogService's status from, in the middle of a rollout.
    apiServer = await startFakeApiServer(
      join(cluster.root, 'api-server'),
      '/apis/logsvc.io/v1alpha1/namespaces/team-a/logservices/logs',
      ROLLING_LOGSERVICE,
    );
    main = await cluster.add('logsvc-1', 'all', {
      env: { [LOGSERVICE_FILE_ENV]: logService, ...apiServer.env },
    });
    // A member that runs a different config, for the config diff.
    reader = await cluster.add('logsvc-2', 'querier', {
      config: { limits_config: { max_query_series: 123 } },
    });
    const lines: Array<[string, Record<string, string>?]> = [];
    for (let i = 0; i < 30; i++) {
      lines.push(
        i % 3 === 0
          ? [`level=error request ${i} failed`, { trace_id: `t${i}` }]
          : [`level=info request ${i} ok`],
      );
    }
    await push(url(), lines);
    kv = createKv(
      resolveRingConfig(
        parseConfig({
          common: {
            ring: { kvstore: { store: 'etcd', etcd: { endpoints: [cluster.etcd.endpoint] } } },
          },
        }),
        'distributor',
      ).kvstore,
    );
    ({ browser, page, errors } = await openPage());
    shots = screenshotDir();
  }, 120_000);

  // Every page in every step: nothing in the console (no 404 polled, no exception), except the
  // 400 of a LogQL check made to fail on purpose.
  afterEach(() => {
    expect(errors.take(/\/loki\/api\/v1\/format_query/)).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await kv?.close();
    await cluster?.dispose();
    apiServer?.close();
    if (process.env.LOGSVC_UI_SCREENSHOTS !== '1' && shots)
      rmSync(shots, { recursive: true, force: true });
  });

  const goto = (path: string) => page.goto(`${url()}/ui${path}`);
  const get = (member: Member, path: string) => fetch(`${member.process.url}${path}`);

  it('shows every instance live, and changes log level, flush and prepare_shutdown', async () => {
    await goto('/');
    const row = (id: string) =>
      page.locator('tr', { has: page.getByRole('link', { name: id, exact: true }) });
    await row('logsvc-2').getByText('querier: Running').waitFor();
    await row('logsvc-1').getByText('ui: Running').waitFor();
    await row('logsvc-1').getByText('ready', { exact: true }).waitFor();
    expect(await page.getByText('Live (cluster)').count()).toBe(1);

    // The other process, through the proxy.
    await row('logsvc-2').getByRole('button', { name: 'Actions' }).click();
    await page.getByLabel('Log level of logsvc-2').selectOption('debug');
    await page.getByRole('button', { name: 'Set level' }).click();
    // Once failed under the full suite's load, not reproduced: say what the panel showed.
    await page
      .getByText('now debug')
      .waitFor()
      .catch(async (err: Error) => {
        const panels = await page.locator('.actions-panel').allInnerTexts();
        throw new Error(`${err.message}\nactions panels: ${JSON.stringify(panels)}`);
      });
    expect(await (await get(reader, '/log_level')).json()).toEqual({
      message: 'Current log level is debug',
    });
    await row('logsvc-2').getByRole('button', { name: 'Hide actions' }).click();

    await row('logsvc-1').getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('button', { name: 'Flush logsvc-1' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Flush' }).click();
    await page.getByText('Flushed: every in-memory chunk').waitFor();
    const metrics = await (await get(main, '/metrics')).text();
    expect(metrics).toMatch(/^logsvc_ingester_chunks_flushed_total(\{[^}]*\})? [1-9]/m);

    await page.getByRole('button', { name: 'Set prepare_shutdown' }).click();
    await page.getByTestId('prepare-logsvc-1').getByText('set', { exact: true }).waitFor();
    expect(await (await get(main, '/ingester/prepare_shutdown')).text()).toBe('set');
    await page.getByRole('button', { name: 'Unset prepare_shutdown' }).click();
    await page.getByTestId('prepare-logsvc-1').getByText('unset').waitFor();
    expect(await (await get(main, '/ingester/prepare_shutdown')).text()).toBe('unset');

    // A distributor that stopped heartbeating ten minutes ago shows up without a reload (the
    // page only listens to its WebSocket), known from the ring only.
    await kv.cas('distributor', (current) =>
      encodeRing(
        withInstance(decodeRing(current), {
          id: 'dead-distributor',
          addr: '127.0.0.1:1',
          zone: '',
          state: 'ACTIVE',
          tokens: [42],
          heartbeatMs: Date.now() - 600_000,
          registeredMs: Date.now() - 3_600_000,
        }),
      ),
    );
    await row('dead-distributor').getByText('not reporting').waitFor();
    await row('dead-distributor').getByText('distributor: UNHEALTHY').waitFor();

    // A process killed without leaving: its last report, a minute old, said Running.
    const minuteAgo = new Date(Date.now() - 60_000).toISOString();
    await kv.cas(INSTANCES_KEY, (current) => {
      const reports = JSON.parse(current?.toString('utf8') ?? '{}') as Record<string, unknown>;
      reports['killed-querier'] = {
        id: 'killed-querier',
        http_url: 'http://127.0.0.1:1',
        targets: ['querier'],
        version: '0.1.0',
        started_at: new Date(Date.now() - 3_600_000).toISOString(),
        ready: true,
        ready_message: 'ready',
        services: [{ name: 'querier', state: 'Running' }],
        updated_at: minuteAgo,
      };
      return Buffer.from(JSON.stringify(reports));
    });
    const killed = row('killed-querier');
    await killed.getByText(/^dead: silent for/).waitFor();
    await killed.getByText('querier: Failed').waitFor();
    expect(await killed.getByText(/Running/).count()).toBe(0);
    await screenshots(page, shots, 'overview');
  });

  it('shows a node page with its services, rings and live charts, and a dead node as dead', async () => {
    await goto('/node?id=logsvc-1');
    await page.getByRole('heading', { name: 'Node logsvc-1' }).waitFor();
    await page.getByText('alive', { exact: true }).waitFor();
    await page.getByRole('img', { name: /^Memory \(RSS\): \d/ }).waitFor();
    await page.getByRole('img', { name: /^Streams in memory: \d/ }).waitFor();
    // The rates need two reads, 5 s apart.
    await page
      .getByRole('img', { name: /^Ingest rate \(lines\/s\): \d/ })
      .waitFor({ timeout: 20_000 });
    expect(await page.locator('.spark-card canvas').count()).toBeGreaterThan(2);
    const services = page.locator('section', {
      has: page.getByRole('heading', { name: 'Services' }),
    });
    await services.getByRole('row', { name: /ingester Running/ }).waitFor();
    await screenshots(page, shots, 'node');

    await goto('/node?id=killed-querier');
    await page.getByText(/^dead: no report for/).waitFor();
    await page.getByRole('row', { name: /querier Failed/ }).waitFor();
    expect(await page.getByText('Running', { exact: true }).count()).toBe(0);
    await screenshots(page, shots, 'node-dead');
  });

  it('shows each ring, highlights an unhealthy member, and forgets it after confirmation', async () => {
    await goto('/rings');
    const tabs = page.getByRole('navigation', { name: 'Rings' });
    await tabs.getByRole('link', { name: 'Ingester' }).waitFor();
    // logsvc has no scheduler ring yet: its page answers 404, so it has no tab.
    expect(await tabs.getByRole('link', { name: 'Query scheduler' }).count()).toBe(0);
    await page.getByRole('img', { name: /Token ownership: logsvc-1 100\.0%/ }).waitFor();
    await screenshots(page, shots, 'rings');

    await tabs.getByRole('link', { name: 'Distributor' }).click();
    const dead = page.locator('tr.alert', { hasText: 'dead-distributor' });
    await dead.getByText('UNHEALTHY').waitFor();
    await dead.getByRole('button', { name: 'Forget' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Forget' }).click();
    await dead.waitFor({ state: 'detached' });
    const ring = (await (
      await fetch(`${url()}/distributor/ring`, { headers: { accept: 'application/json' } })
    ).json()) as RingStatus;
    expect(ring.shards.map((s) => s.id)).toEqual(['logsvc-1']);
  });

  it('diffs the config of two instances side by side', async () => {
    await goto('/config');
    await page.getByLabel('Diff between two instances').check();
    await page.getByLabel('Left').selectOption('logsvc-1');
    await page.getByLabel('Right').selectOption('logsvc-2');
    await page.getByText(/\d+ lines differ/).waitFor();
    await page.locator('td.ins', { hasText: 'max_query_series: 123' }).waitFor();
    await page.locator('td.ins', { hasText: 'target: querier' }).waitFor();
    await page.getByLabel('Only differing lines').check();
    // The section of a differing setting stays above it.
    await page
      .locator('td.code', { hasText: /^limits_config:$/ })
      .first()
      .waitFor();
    await screenshots(page, shots, 'config');
    await page.getByLabel('Side by side').check();
    await page.getByRole('heading', { name: 'Defaults' }).waitFor();
    await page.getByRole('heading', { name: 'Running config of logsvc-1' }).waitFor();
    await page.getByRole('heading', { name: 'LogService spec' }).waitFor();
    await page.getByRole('heading', { name: 'Config file as written' }).waitFor();
    await screenshots(page, shots, 'config-side-by-side');
    await page.getByLabel('Diff against the defaults').check();
    await page.getByLabel('Instance', { exact: true }).selectOption('logsvc-2');
    await page.locator('td.ins', { hasText: 'max_query_series: 123' }).waitFor();
  });

  it('shows the LogService spec beside the rendered config, relating their lines', async () => {
    await goto('/config');
    await page.getByLabel('LogService spec vs rendered config').check();
    await page.getByText(/settings of the rendered config differ from logsvc's defaults/).waitFor();
    await page
      .getByRole('columnheader', { name: 'LogService team-a/logs, generation 2: spec' })
      .waitFor();
    // The config file of logsvc-1 as written; a setting it changes from the defaults is marked,
    // with the spec line it comes from.
    const retention = page.locator('td.ins', { hasText: 'retention_enabled: true' });
    expect(await retention.getAttribute('title')).toMatch(
      /^compactor\.retention_enabled differs from the default false, from spec line \d+$/,
    );
    await retention.hover();
    const spec = page.locator('table').first();
    await spec.locator('tr.linked td.ins', { hasText: /^\s+enabled: true/ }).waitFor();
    // Only the settings that differ, under their parent keys; one pointed at, with its spec line.
    await page.getByLabel('Only differing lines').check();
    await page.locator('td.code', { hasText: /^compactor:$/ }).waitFor();
    await retention.hover();
    await spec.locator('tr.linked td.ins', { hasText: /^\s+enabled: true/ }).waitFor();
    // The status from the API server above them: the rollout and the pod it replaces.
    const phase = page.getByTestId('rollout-phase');
    await phase.filter({ hasText: 'replacing logs-single-binary-0' }).waitFor();
    expect(await phase.textContent()).toBe(
      'Ingester rollout: Replacing — replacing logs-single-binary-0: logs-single-binary-0 runs an old revision: replacing it',
    );
    await screenshots(page, shots, 'config-logservice');
    await page.getByLabel('Only differing lines').uncheck();

    const view = (await (await get(main, '/ui/api/logservice')).json()) as LogServiceView;
    expect(view).toMatchObject({ name: 'logs', namespace: 'team-a', generation: 2 });
    expect(view.renderedConfigYaml).toContain('retention_enabled: true');
  });

  it('creates a rule group, marks bad LogQL at its line, shows rule state, and deletes it', async () => {
    await goto('/rules');
    await page.getByText('No rule groups for tenant fake').waitFor();
    await page.getByRole('button', { name: 'New rule group' }).click();
    await page.getByLabel('Namespace').fill('e2e');
    const editor = page.getByLabel('Rule group YAML');
    const group = (expr: string) =>
      'name: web-errors\ninterval: 1s\nrules:\n' +
      `  - record: web:errors:rate1m\n    expr: ${expr}\n` +
      '  - alert: WebErrors\n    expr: sum(count_over_time({app="web"} |= "error" [1h])) > 0\n';
    await editor.fill(group('sum(rate({app="web"} |= "error" [1m]) >'));
    await page.getByText(/^Line 5: /).waitFor();
    await screenshots(page, shots, 'rules-editor');
    expect(await page.getByRole('button', { name: 'Save group' }).isDisabled()).toBe(true);
    await editor.fill(group('sum(rate({app="web"} |= "error" [1m]))'));
    await page.getByText(/^Line 5: /).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Save group' }).click();
    await page.getByRole('heading', { name: /e2e \/ web-errors/ }).waitFor();
    const stored = await fetch(`${url()}/loki/api/v1/rules/e2e/web-errors`);
    expect(stored.status).toBe(200);
    expect(await stored.text()).toContain('web:errors:rate1m');
    // The ruler evaluates it every second; the page shows its health and the firing alert.
    await page
      .locator('tr', { hasText: 'web:errors:rate1m' })
      .getByText('ok', { exact: true })
      .waitFor({ timeout: 20_000 });
    await page
      .locator('tr', { hasText: 'WebErrors' })
      .getByText(/^firing, active since/)
      .waitFor({ timeout: 20_000 });
    await screenshots(page, shots, 'rules');

    await page.getByRole('button', { name: 'Delete web-errors' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete group' }).click();
    await page.getByText('No rule groups for tenant fake').waitFor();
    expect((await fetch(`${url()}/loki/api/v1/rules/e2e/web-errors`)).status).toBe(404);
  });

  it('previews how many lines a delete request matches, creates it and cancels it', async () => {
    await goto('/deletes');
    await page.getByLabel('Stream selector').fill('{app="web"}');
    await page.getByLabel('Line contains (optional)').fill('error');
    await page.getByRole('button', { name: 'Preview deletion' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`matches ${ERROR_LINES} lines`).waitFor();
    await dialog.getByRole('button', { name: `Delete ${ERROR_LINES} lines` }).click();
    await page.getByText('Delete request created.').waitFor();
    const row = page.locator('tr', { hasText: '{app="web"} |= "error"' });
    await row.getByText('received').waitFor();
    const listed = (await (await fetch(`${url()}/loki/api/v1/delete`)).json()) as Array<{
      query: string;
    }>;
    expect(listed.map((r) => r.query)).toEqual(['{app="web"} |= "error"']);
    await screenshots(page, shots, 'deletes');

    await row.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel request' }).click();
    await page.getByText('No delete requests.').waitFor();
    expect(await (await fetch(`${url()}/loki/api/v1/delete`)).json()).toEqual([]);
  });

  it('explores logs with validation, a volume histogram, metadata, and a pausable live tail', async () => {
    await goto('/explore');
    const input = page.getByLabel('LogQL');
    await input.fill('{app="web"} |=');
    await page
      .locator('#query-problem')
      .getByText(/parse error|syntax error/)
      .waitFor();
    expect(await page.getByRole('button', { name: 'Run query' }).isDisabled()).toBe(true);
    await input.fill('{app="web"} |= "error"');
    await page.getByRole('button', { name: 'Run query' }).click();
    await page.getByRole('button', { name: 'Last 7d' }).click();
    await page.getByRole('button', { name: 'Run query' }).click();
    await page
      .getByRole('img', {
        name: new RegExp(`^${ERROR_LINES} lines from .*: error ${ERROR_LINES}$`),
      })
      .waitFor();
    await page.getByText('level=error request 27 failed').waitFor();
    await page.locator('.label.meta', { hasText: 'trace_id=t27' }).waitFor();
    // The histogram spans the chosen range (Last 7d), not the hour that has data.
    const histogram = page.locator('figure.histogram');
    const from = Date.parse(await page.getByLabel('From', { exact: true }).inputValue());
    const to = Date.parse(await page.getByLabel('To', { exact: true }).inputValue());
    expect(to - from).toBe(7 * 86_400_000 + 60_000);
    expect(Number(await histogram.getAttribute('data-start'))).toBe(from);
    expect(Number(await histogram.getAttribute('data-end'))).toBe(to);
    expect(await histogram.locator('canvas').count()).toBe(1);
    await screenshots(page, shots, 'explore');

    // Dragging over the histogram zooms into what was dragged over.
    // (Drawn again after the screenshots' change of theme.)
    const over = histogram.locator('.u-over');
    const box = await eventually(
      async () => (await over.boundingBox()) ?? undefined,
      'the histogram drawn',
    );
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await eventually(async () => {
      const start = Number(await histogram.getAttribute('data-start'));
      const end = Number(await histogram.getAttribute('data-end'));
      return start > from && end < to ? true : undefined;
    }, 'the histogram to zoom into the dragged range');

    // A metric query is drawn as a chart with a legend, and can be read as a table.
    await input.fill('sum by (app) (count_over_time({app="web"} [1m]))');
    await page.getByRole('button', { name: 'Last 1h' }).click();
    await page.getByRole('button', { name: 'Run query' }).click();
    await page.getByRole('img', { name: /^Time series chart of 1 series/ }).waitFor();
    expect(await page.locator('.metric-chart canvas').count()).toBe(1);
    await page.getByRole('list', { name: 'Legend' }).getByText('{app="web"}').waitFor();
    await screenshots(page, shots, 'explore-metric');
    await page.getByRole('button', { name: 'Table', exact: true }).click();
    await page.getByRole('columnheader', { name: '{app="web"}' }).waitFor();

    await input.fill('{app="web"} |= "error"');

    await page.getByRole('button', { name: 'Live tail' }).click();
    await page.getByText('Tail: live').waitFor();
    await push(url(), [['level=error tailed while live']]);
    await page.getByText('level=error tailed while live').waitFor();
    await page.getByRole('button', { name: 'Pause' }).click();
    await push(url(), [['level=error tailed while paused']]);
    await eventually(
      async () => ((await page.getByText(/paused \(1 held\)/).count()) === 1 ? true : undefined),
      'the paused tail to hold the line',
    );
    expect(await page.getByText('level=error tailed while paused').count()).toBe(0);
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByText('level=error tailed while paused').waitFor();
  });
  it("queries through the cluster's query frontend from a ruler,ui process, which has none", async () => {
    // The operator's admin UI pod in Microservices: it runs the ruler and the UI only.
    const ruler = await cluster.add('logsvc-3', 'ruler,ui');
    await page.goto(`${ruler.process.url}/ui/explore`);
    await page
      .getByRole('note')
      .filter({ hasText: 'queries run on logsvc-1 (its query frontend)' })
      .waitFor();
    await page.getByLabel('LogQL').fill('{app="web"} |= "error"');
    await page.getByRole('button', { name: 'Run query' }).click();
    await page.getByText('level=error request 0 failed').waitFor();
    await page.getByRole('img', { name: /^\d+ lines from .*: error \d+$/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Live tail' }).isDisabled()).toBe(true);
  });
});

/**
 * A server process (started by `start`) and a browser page for it, for the tests of one describe
 * block; both stopped after it.
 */
function serverAndPage(start: () => Promise<ServerProcess>): () => BrowserPage & {
  server: ServerProcess;
} {
  let server: ServerProcess | undefined;
  let opened: BrowserPage | undefined;
  beforeAll(async () => {
    server = await start();
    opened = await openPage();
  }, 120_000);
  afterAll(async () => {
    await opened?.browser.close();
    await server?.dispose();
  });
  return () => ({ ...opened!, server: server! });
}

/**
 * Opens every page of the UI at `url` (each past the first refresh of the pages that poll, 5 s)
 * and expects nothing in the console on any; resolves with the instances of its overview.
 */
async function visitEveryPage(
  { page, errors }: BrowserPage,
  url: string,
): Promise<Array<{ id: string }>> {
  const overview = (await (await fetch(`${url}/ui/api/overview`)).json()) as {
    instances: Array<{ id: string }>;
  };
  const self = overview.instances[0]!.id;
  const pages: Array<[string, string | RegExp]> = [
    ['/', 'Cluster overview'],
    [`/node?id=${encodeURIComponent(self)}`, `Node ${self}`],
    ['/rings', 'Rings'],
    ['/config', 'Configuration'],
    ['/rules', 'Rule groups of fake'],
    ['/deletes', /^Delete requests/],
    ['/explore', 'Explore logs of fake'],
  ];
  for (const [path, name] of pages) {
    await page.goto(`${url}/ui${path}`);
    await page.getByRole('heading', { level: 1, name }).waitFor();
    await page.waitForTimeout(path === '/rings' ? 6_000 : 1_000);
    expect(errors.take(), path).toEqual([]);
  }
  return overview.instances;
}

describe('the admin UI in chromium, against a single binary', () => {
  const fixture = serverAndPage(async () => {
    const server = await startServer();
    await push(server.url, [['level=warn single binary line']]);
    return server;
  });

  it('loads every page with nothing in the console: no 404 polled, no exception', async () => {
    const { server, page, errors } = fixture();
    expect(await visitEveryPage(fixture(), server.url)).toHaveLength(1);
    await page.goto(`${server.url}/ui/rings`);
    await page
      .getByRole('navigation', { name: 'Rings' })
      .getByRole('link', { name: 'Ingester' })
      .waitFor();
    await page.goto(`${server.url}/ui/explore`);
    await page.getByRole('button', { name: 'Run query' }).click();
    await page.getByRole('img', { name: /^1 lines from .*: warn 1$/ }).waitFor();
    expect(errors.take()).toEqual([]);
  });
});

// The targets the operator gives the admin UI in a Microservices LogService (docs/operator.md):
// every page loads with nothing in the console, the pages the process cannot answer saying so.
describe.each([
  { target: 'ruler,ui', flags: [] as string[], heading: 'Ruler' },
  { target: 'compactor,ui', flags: ['-compactor.retention-enabled=true'], heading: 'Compactor' },
])('the admin UI in chromium, against -target=$target', ({ target, flags, heading }) => {
  const fixture = serverAndPage(() => startServer({ flags: [`-target=${target}`, ...flags] }));

  it('loads every page with nothing in the console, and says what it does not serve', async () => {
    const { server, page, errors } = fixture();
    await visitEveryPage(fixture(), server.url);
    await page.goto(`${server.url}/ui/rings`);
    await page
      .getByRole('navigation', { name: 'Rings' })
      .getByRole('link', { name: heading })
      .waitFor();
    await page.goto(`${server.url}/ui/explore`);
    await page.getByRole('note').filter({ hasText: 'runs no querier' }).waitFor();
    expect(await page.getByRole('button', { name: 'Run query' }).isDisabled()).toBe(true);
    // The page of the component the process does not run says so.
    const [other, says] = target.startsWith('ruler')
      ? ['deletes', 'serves no delete API']
      : ['rules', 'runs no ruler'];
    await page.goto(`${server.url}/ui/${other}`);
    await page.getByRole('note').filter({ hasText: says }).waitFor();
    expect(errors.take()).toEqual([]);
  });
});
