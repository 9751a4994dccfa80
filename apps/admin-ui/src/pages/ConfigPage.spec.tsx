import type { ClusterOverview, InstanceOverview, LogServiceView } from '@logsvc/api/browser';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type Call,
  fakeApi,
  instanceOverview,
  json,
  paramsOf,
  renderPage,
  text,
} from '../test-support';
import { ConfigPage } from './ConfigPage';

function instance(id: string, self: boolean): InstanceOverview {
  return instanceOverview({ id, self, targets: ['backend'] });
}

const overview: ClusterOverview = {
  now: '2026-01-01T00:00:00Z',
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
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('is not offered outside Kubernetes', async () => {
    fakeApi({
      'GET /ui/api/overview': () => json(overview),
      'GET /ui/api/logservice': () =>
        text('no LogService: this process was not started by the logsvc operator\n', 404),
      'GET /ui/api/instances/logs-write-0/config': configOf,
    });
    renderPage(<ConfigPage />);
    await screen.findByText('Running config of logs-write-0');
    expect(screen.getAllByRole('radio').map((r) => r.parentElement!.textContent!.trim())).toEqual([
      'Running config',
      'Diff against the defaults',
      'Diff between two instances',
    ]);
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
