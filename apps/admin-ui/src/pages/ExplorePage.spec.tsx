import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, instanceOverview, json, paramsOf, renderPage, uiFeatures } from '../test-support';
import { ExplorePage } from './ExplorePage';

const streams = {
  status: 'success',
  data: {
    resultType: 'streams',
    encodingFlags: ['categorize-labels'],
    result: [
      {
        stream: { app: 'web' },
        values: [['1700000000000000000', 'boom', { structuredMetadata: { trace_id: 't1' } }]],
      },
    ],
    stats: {},
  },
};
/** Counts in the last bucket of the volume query asked (its `end`, in ns). */
const volume = (endNs: string) => {
  const t = Number(endNs) / 1e9;
  return {
    status: 'success',
    data: {
      resultType: 'matrix',
      result: [
        { metric: { detected_level: 'error' }, values: [[t, '3']] },
        { metric: { detected_level: 'info' }, values: [[t, '5']] },
      ],
      stats: {},
    },
  };
};
const overview = (instances: ReturnType<typeof instanceOverview>[]) => ({
  now: '2026-01-01T00:00:01Z',
  mode: 'cluster',
  instances,
});
const metric = {
  status: 'success',
  data: {
    resultType: 'matrix',
    result: [
      {
        metric: { app: 'web' },
        values: [
          [1700000000, '16'],
          [1700000060, '2.5'],
        ],
      },
      { metric: { app: 'api' }, values: [[1700000060, '1']] },
    ],
    stats: {},
  },
};

describe('ExplorePage', () => {
  it('refuses to run a query the server cannot parse, and shows why', async () => {
    fakeApi({
      'GET /loki/api/v1/format_query': () =>
        json({ status: 'invalid-query', error: 'parse error at line 1, col 8: syntax error' }, 400),
    });
    renderPage(<ExplorePage />);
    fireEvent.change(screen.getByLabelText('LogQL'), { target: { value: '{app="web"' } });
    await screen.findByText('parse error at line 1, col 8: syntax error');
    expect((screen.getByRole('button', { name: 'Run query' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('shows lines with their structured metadata and the volume of the same query', async () => {
    const calls = fakeApi({
      'GET /loki/api/v1/format_query': () => json({ status: 'success', data: '{app="web"}' }),
      'GET /loki/api/v1/query_range': (call) =>
        json(
          paramsOf(call).get('query')!.startsWith('sum by (detected_level) (')
            ? volume(paramsOf(call).get('end')!)
            : streams,
        ),
    });
    renderPage(<ExplorePage />);
    fireEvent.change(screen.getByLabelText('LogQL'), { target: { value: '{app="web"}' } });
    await waitFor(() => expect(calls.some((c) => c.url.includes('format_query'))).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Run query' }));
    await screen.findByText('boom');
    expect(screen.getByText('trace_id=t1').getAttribute('title')).toBe('structured metadata');
    const chart = await screen.findByRole('img', { name: /^8 lines from .* error 3, info 5$/ });
    // The histogram spans the chosen range, whatever the data.
    const figure = chart.closest('figure')!;
    const volumeCall = calls.find((c) => (paramsOf(c).get('query') ?? '').startsWith('sum by'))!;
    const logCallParams = paramsOf(calls.find((c) => c.url.includes('limit='))!);
    expect(figure.dataset.start).toBe(String(Number(logCallParams.get('start')) / 1e6));
    expect(figure.dataset.end).toBe(String(Number(logCallParams.get('end')) / 1e6));
    expect(Number(paramsOf(volumeCall).get('end'))).toBe(Number(logCallParams.get('end')));
    expect(within(figure).getByRole('list', { name: 'Levels' }).textContent).toBe('error 3info 5');
    const logCall = calls.find((c) => c.url.includes('query_range') && c.url.includes('limit='))!;
    expect(logCall.headers['X-Loki-Response-Encoding-Flags']).toBe('categorize-labels');
    expect(logCall.headers['X-Scope-OrgID']).toBe('team-a');
  });

  it('draws a metric query as a time series chart with a legend, and as a table', async () => {
    const calls = fakeApi({
      'GET /loki/api/v1/format_query': () => json({ status: 'success', data: 'x' }),
      'GET /loki/api/v1/query_range': () => json(metric),
    });
    renderPage(<ExplorePage />);
    fireEvent.change(screen.getByLabelText('LogQL'), {
      target: { value: 'sum by (app) (rate({app=~".+"} [1m]))' },
    });
    await waitFor(() => expect(calls.some((c) => c.url.includes('format_query'))).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Run query' }));
    await screen.findByRole('img', { name: 'Time series chart of 2 series over 2 steps' });
    expect(document.querySelector('.metric-chart canvas')).not.toBeNull();
    const legend = screen.getByRole('list', { name: 'Legend' });
    expect(legend.textContent).toContain('{app="web"} last 2.5, max 16');
    expect(legend.textContent).toContain('{app="api"} last 1, max 1');
    // No request counts lines of a metric query.
    expect(
      calls.some((c) => (paramsOf(c).get('query') ?? '').startsWith('sum by (detected_level)')),
    ).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Table' }));
    const table = screen.getByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['16', '']);
    expect(
      within(rows[2]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['2.5', '1']);
  });

  it('queries several tenants at once where multi-tenant queries are enabled', async () => {
    const calls = fakeApi({
      'GET /ui/api/features': () => json(uiFeatures({ multi_tenant_queries: true })),
      'GET /loki/api/v1/format_query': () => json({ status: 'success', data: 'x' }),
      'GET /loki/api/v1/query_range': () => json(metric),
    });
    renderPage(<ExplorePage />);
    const tenants = await screen.findByLabelText('Tenants (a|b, empty for team-a)');
    fireEvent.change(tenants, { target: { value: 'team-a|bad/' } });
    await screen.findByText("tenant ID 'bad/' contains unsupported character '/'");
    expect((screen.getByRole('button', { name: 'Run query' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.change(tenants, { target: { value: 'team-a|team-b' } });
    fireEvent.change(screen.getByLabelText('LogQL'), {
      target: { value: 'sum(rate({a="b"}[1m]))' },
    });
    await waitFor(() => expect(calls.some((c) => c.url.includes('format_query'))).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Run query' }));
    await screen.findByRole('img', { name: /^Time series chart/ });
    const call = calls.find((c) => c.url.startsWith('/loki/api/v1/query_range'))!;
    expect(call.headers['X-Scope-OrgID']).toBe('team-a|team-b');
  });

  it('runs no query in a process without a querier, nor any live instance with one', async () => {
    const calls = fakeApi({
      'GET /ui/api/features': () => json(uiFeatures({ queries: false })),
      'GET /ui/api/overview': () =>
        json(overview([instanceOverview({ id: 'logs-ruler-0', self: true, targets: ['ruler'] })])),
      'GET /loki/api/v1/format_query': () => json({ status: 'success', data: '{app="web"}' }),
    });
    renderPage(<ExplorePage />);
    expect((await screen.findByRole('note')).textContent).toContain('runs no querier');
    fireEvent.change(screen.getByLabelText('LogQL'), { target: { value: '{app="web"}' } });
    await waitFor(() => expect(calls.some((c) => c.url.includes('format_query'))).toBe(true));
    for (const name of ['Run query', 'Live tail'])
      expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.submit(screen.getByLabelText('LogQL').closest('form')!);
    expect(calls.filter((c) => !/features|format_query|overview/.test(c.url))).toEqual([]);
  });

  it('runs a query on a live query frontend through the proxy when this process has none', async () => {
    const calls = fakeApi({
      'GET /ui/api/features': () => json(uiFeatures({ queries: false })),
      'GET /ui/api/overview': () =>
        json(
          overview([
            instanceOverview({ id: 'logs-ruler-0', self: true, targets: ['ruler', 'ui'] }),
            instanceOverview({ id: 'logs-querier-0', targets: ['querier'] }),
            instanceOverview({ id: 'logs-query-frontend-0', targets: ['query-frontend'] }),
          ]),
        ),
      'GET /loki/api/v1/format_query': () => json({ status: 'success', data: '{app="web"}' }),
      'GET /ui/api/instances/logs-query-frontend-0/loki/api/v1/query_range': (call) =>
        json(
          paramsOf(call).get('query')!.startsWith('sum by (detected_level) (')
            ? volume(paramsOf(call).get('end')!)
            : streams,
        ),
    });
    renderPage(<ExplorePage />);
    expect((await screen.findByRole('note')).textContent).toContain(
      'queries run on logs-query-frontend-0 (its query frontend)',
    );
    fireEvent.change(screen.getByLabelText('LogQL'), { target: { value: '{app="web"}' } });
    await waitFor(() => expect(calls.some((c) => c.url.includes('format_query'))).toBe(true));
    expect((screen.getByRole('button', { name: 'Live tail' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Run query' }));
    await screen.findByText('boom');
    await screen.findByRole('img', { name: /^8 lines from .* error 3, info 5$/ });
    const asked = calls.filter((c) => c.url.includes('query_range'));
    expect(asked.length).toBe(2);
    expect(asked.every((c) => c.url.startsWith('/ui/api/instances/logs-query-frontend-0/'))).toBe(
      true,
    );
    expect(asked[0]!.headers['X-Loki-Response-Encoding-Flags']).toBe('categorize-labels');
    expect(asked[0]!.headers['X-Scope-OrgID']).toBe('team-a');
  });
});
