import type { ClusterOverview, InstanceOverview, LogServiceView } from '@logsvc/api/browser';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  type Call,
  fakeApi,
  instanceOverview,
  json,
  paramsOf,
  renderPage,
  text,
  uiFeatures,
} from '../test-support';
import { ConfigPage } from './ConfigPage';

function instance(id: string, self: boolean): InstanceOverview {
  return instanceOverview({ id, self, targets: ['backend', 'ui'] });
}

const overview: ClusterOverview = {
  now: '2026-01-01T00:00:05Z',
  mode: 'cluster',
  instances: [instance('logs-write-0', false), instance('logs-backend-0', true)],
};

const logService: LogServiceView = {
  name: 'logs',
  namespace: 'team-a',
  generation: 4,
  specYaml: ['mode: SimpleScalable', 'limits:', '  global:', '    maxLineSize: 512KB', ''].join(
    '\n',
  ),
  renderedConfigYaml: [
    'server:',
    '  http_listen_port: 3100',
    'limits_config:',
    '  max_line_size: 512KB',
    '',
  ].join('\n'),
  renderedConfigSource: 'config-file',
  configFileChanged: false,
  status: { error: 'KUBERNETES_SERVICE_HOST is not set: this process does not run in a pod' },
};

const configOf = (call: Call) => {
  switch (paramsOf(call).get('mode')) {
    case 'diff':
      return text('limits_config:\n  max_line_size: 512KB\n');
    case 'defaults':
      return text('server:\n  http_listen_port: 3100\nlimits_config:\n  max_line_size: 256KB\n');
    default:
      return text('server:\n  http_listen_port: 3100\n');
  }
};

const backend = '/ui/api/instances/logs-backend-0';

function kubernetesApi(view: LogServiceView = logService) {
  return fakeApi({
    'GET /ui/api/overview': () => json(overview),
    'GET /ui/api/features': () => json(uiFeatures({ logservice: true, config_file: true })),
    [`GET ${backend}/ui/api/features`]: () =>
      json(uiFeatures({ logservice: true, config_file: true })),
    'GET /ui/api/instances/logs-write-0/ui/api/features': () => json(uiFeatures()),
    'GET /ui/api/logservice': () => json(view),
    [`GET ${backend}/ui/api/logservice`]: () => json(view),
    [`GET ${backend}/config`]: configOf,
    'GET /ui/api/instances/logs-write-0/config': configOf,
  });
}

/** The row of a marked-lines table that holds `text`. */
const rowOf = (table: HTMLElement, text: string) =>
  within(table).getByText(text, { exact: false }).closest('tr')!;

describe('ConfigPage: the LogService view', () => {
  it('is not offered outside Kubernetes', async () => {
    const calls = fakeApi({
      'GET /ui/api/overview': () => json(overview),
      'GET /ui/api/features': () => json(uiFeatures()),
      'GET /ui/api/instances/logs-write-0/ui/api/features': () => json(uiFeatures()),
      'GET /ui/api/instances/logs-write-0/config': configOf,
    });
    renderPage(<ConfigPage />);
    await screen.findByText('Running config of logs-write-0');
    expect(screen.getAllByRole('radio').map((r) => r.parentElement!.textContent!.trim())).toEqual([
      'Side by side',
      'Diff of any two',
      'Diff against the defaults',
      'Diff between two instances',
      'Per-tenant overrides',
    ]);
    // Nothing is asked that answers 404: no LogService, no config file of a process without.
    expect(calls.some((c) => c.url.includes('logservice') || c.url.includes('config-file'))).toBe(
      false,
    );
    await screen.findByRole('heading', { name: 'Defaults' });
  });

  it('shows the spec beside the rendered config, highlighting what differs from the defaults', async () => {
    const calls = kubernetesApi();
    renderPage(<ConfigPage />);
    fireEvent.click(
      await screen.findByRole('radio', { name: 'LogService spec vs rendered config' }),
    );
    const [spec, config] = await screen.findAllByRole('table');
    expect(within(spec).getByRole('columnheader').textContent).toBe(
      'LogService team-a/logs, generation 4: spec',
    );
    // The instance that served the page, through the per-instance proxy.
    expect(within(config).getByRole('columnheader').textContent).toBe(
      'Rendered config of logs-backend-0',
    );
    expect(calls.map((c) => c.url)).toContain(`${backend}/ui/api/logservice`);
    expect(screen.getByRole('status').textContent).toBe(
      "1 setting of the rendered config differs from logsvc's defaults; 1 spec line sets it.",
    );

    const maxLine = rowOf(config, 'max_line_size: 512KB');
    expect(maxLine.querySelector('td.code')!.className).toBe('code ins');
    expect(maxLine.textContent).toContain(
      'limits_config.max_line_size differs from the default 256KB, from spec line 4',
    );
    // Written in the file but equal to the default: not highlighted.
    expect(rowOf(config, 'http_listen_port').querySelector('td.code')!.className).toBe('code');
    const specLine = rowOf(spec, 'maxLineSize: 512KB');
    expect(specLine.textContent).toContain('sets config line 4');
    expect(rowOf(spec, 'mode: SimpleScalable').querySelector('td.code')!.className).toBe('code');

    // Pointing at the config line outlines the spec line it comes from.
    fireEvent.mouseEnter(maxLine);
    expect(rowOf(spec, 'maxLineSize: 512KB').className).toBe('linked');
    fireEvent.mouseLeave(maxLine);
    expect(rowOf(spec, 'maxLineSize: 512KB').className).toBe('');

    fireEvent.click(screen.getByRole('checkbox', { name: 'Only differing lines' }));
    expect(within(config).queryByText('http_listen_port', { exact: false })).toBeNull();
    expect(within(spec).queryByText('mode: SimpleScalable')).toBeNull();
    expect(within(spec).getByText('maxLineSize: 512KB', { exact: false })).toBeTruthy();
    // The keys that enclose a kept line stay, as its path.
    expect(
      within(config)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual([
      'Rendered config of logs-backend-0',
      '3limits_config:',
      expect.stringMatching(/^4 {2}max_line_size: 512KB \(/),
    ]);
    expect(within(spec).queryByText('server:')).toBeNull();
    expect(within(spec).getByText('global:', { exact: false })).toBeTruthy();
  });

  it('says when the config file changed since the instance started', async () => {
    kubernetesApi({ ...logService, configFileChanged: true });
    renderPage(<ConfigPage />);
    fireEvent.click(
      await screen.findByRole('radio', { name: 'LogService spec vs rendered config' }),
    );
    expect((await screen.findByRole('note')).textContent).toContain(
      'The config file of logs-backend-0 changed since it started',
    );
  });

  it('shows the rollout from the status: the pod being replaced, and why it halted', async () => {
    const observed = new Date(Date.now() - 20_000).toISOString();
    const status = {
      generation: 5,
      observedGeneration: 4,
      lastObservedTime: observed,
      version: '0.2.0',
      conditions: [
        {
          type: 'Progressing',
          status: 'True' as const,
          reason: 'RollingIngesters',
          message: 'replacing logs-ingester-1',
          lastTransitionTime: observed,
        },
      ],
      components: {
        ingester: { kind: 'StatefulSet', replicas: 3, readyReplicas: 2, updatedReplicas: 1 },
        distributor: { kind: 'Deployment', replicas: 2, readyReplicas: 2, updatedReplicas: 2 },
      },
      rollout: { phase: 'Replacing', pod: 'logs-ingester-1', message: 'ring is healthy' },
    };
    kubernetesApi({ ...logService, status });
    renderPage(<ConfigPage />);
    fireEvent.click(
      await screen.findByRole('radio', { name: 'LogService spec vs rendered config' }),
    );
    const section = await screen.findByRole('region', { name: 'Rollout status' });
    expect(within(section).getByTestId('rollout-phase').textContent).toBe(
      'Ingester rollout: Replacing — replacing logs-ingester-1: ring is healthy',
    );
    expect(section.textContent).toContain(
      'The operator observed generation 4 of 5: it has not acted on the newest spec yet.',
    );
    expect(section.textContent).toContain('Version 0.2.0.');
    expect(section.textContent).toMatch(/\((2\d|[3-9]\d)s ago\)\./);
    const components = within(section).getByRole('list', { name: 'Components' });
    expect(
      within(components)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'distributor (Deployment):  2/2 updated, 2/2 ready',
      'ingester (StatefulSet):  1/3 updated, 2/3 ready',
    ]);
    expect(
      within(section).getByRole('progressbar', { name: 'ingester pods updated' }),
    ).toHaveProperty('value', 1);
    expect(section.textContent).toContain('Progressing: True');
    expect(section.textContent).toContain('RollingIngesters — replacing logs-ingester-1');
    cleanup();

    kubernetesApi({
      ...logService,
      status: {
        ...status,
        observedGeneration: 5,
        rollout: {
          phase: 'Halted',
          pod: 'logs-ingester-1',
          message: 'logs-ingester-1 did not become ready within 10m',
        },
      },
    });
    renderPage(<ConfigPage />);
    fireEvent.click(
      await screen.findByRole('radio', { name: 'LogService spec vs rendered config' }),
    );
    const halted = within(await screen.findByRole('region', { name: 'Rollout status' }));
    const phase = halted.getByTestId('rollout-phase');
    expect(phase.textContent).toBe(
      'Ingester rollout: Halted — halted at pod logs-ingester-1: logs-ingester-1 did not become ready within 10m',
    );
    expect(phase.className).toBe('error');
  });

  it('says why the status is missing when the process cannot read it', async () => {
    kubernetesApi({
      ...logService,
      status: {
        error:
          'the API server refused to read LogService team-a/logs: 403: logservices.logsvc.io "logs" is forbidden',
      },
    });
    renderPage(<ConfigPage />);
    fireEvent.click(
      await screen.findByRole('radio', { name: 'LogService spec vs rendered config' }),
    );
    const section = await screen.findByRole('region', { name: 'Rollout status' });
    expect(section.textContent).toContain(
      "The LogService's status is not available: the API server refused to read LogService team-a/logs: 403",
    );
  });

  it('explains an instance without a LogService view', async () => {
    kubernetesApi();
    renderPage(<ConfigPage />);
    fireEvent.click(
      await screen.findByRole('radio', { name: 'LogService spec vs rendered config' }),
    );
    await screen.findAllByRole('table');
    fireEvent.change(screen.getByLabelText('Instance'), { target: { value: 'logs-write-0' } });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'logs-write-0 has no LogService view: it does not run the ui component',
    );
  });
});

describe('ConfigPage: diffs and overrides', () => {
  it('diffs the file as written against the running config, keeping section paths', async () => {
    const file = 'ingester:\n  lifecycler:\n    heartbeat_period: 2s\n';
    const running =
      'ingester:\n  lifecycler:\n    heartbeat_period: 5s\n    id: vm\ndistributor:\n  ring:\n    heartbeat_period: 5s\n';
    fakeApi({
      'GET /ui/api/overview': () => json(overview),
      'GET /ui/api/features': () => json(uiFeatures()),
      'GET /ui/api/instances/logs-write-0/ui/api/features': () =>
        json(uiFeatures({ config_file: true })),
      'GET /ui/api/instances/logs-write-0/ui/api/config-file': () => text(file),
      'GET /ui/api/instances/logs-write-0/config': () => text(running),
    });
    renderPage(<ConfigPage />);
    fireEvent.click(await screen.findByRole('radio', { name: 'Diff of any two' }));
    await within(screen.getByLabelText('Left source')).findByRole('option', {
      name: 'Config file as written',
    });
    fireEvent.change(screen.getByLabelText('Left source'), { target: { value: 'file' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Only differing lines' }));
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Config file as written of logs-write-0', 'Running config of logs-write-0']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => [...r.querySelectorAll('td.code')].map((c) => c.textContent!.trim()));
    // The changed heartbeat_period keeps ingester: / lifecycler: above it; the distributor's
    // section is all new, so it shows whole.
    expect(rows).toEqual([
      ['ingester:', 'ingester:'],
      ['lifecycler:', 'lifecycler:'],
      ['heartbeat_period: 2s', 'heartbeat_period: 5s'],
      ['', 'id: vm'],
      ['', 'distributor:'],
      ['', 'ring:'],
      ['', 'heartbeat_period: 5s'],
    ]);
  });

  it('lists each tenant override with the default it changes', async () => {
    fakeApi({
      'GET /ui/api/overview': () => json(overview),
      'GET /ui/api/features': () => json(uiFeatures()),
      'GET /ui/api/instances/logs-write-0/ui/api/features': () => json(uiFeatures()),
      'GET /ui/api/instances/logs-write-0/config': () => text(''),
      'GET /ui/api/overrides': () =>
        json({
          runtime_config_file: '/etc/logsvc/runtime.yaml',
          tenants: [
            {
              tenant: 'team-a',
              changes: [{ setting: 'ingestion_rate_mb', default: 4, value: 16 }],
            },
          ],
        }),
    });
    renderPage(<ConfigPage />);
    fireEvent.click(await screen.findByRole('radio', { name: 'Per-tenant overrides' }));
    const table = await screen.findByRole('table', { name: 'Tenant team-a: 1 limit changed' });
    const row = within(table).getByRole('rowheader', { name: 'ingestion_rate_mb' }).closest('tr')!;
    expect([...row.querySelectorAll('td')].map((c) => c.textContent)).toEqual(['4', '16']);
  });
});
