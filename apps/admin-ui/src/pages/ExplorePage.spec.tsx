import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, json, paramsOf, renderPage } from '../test-support';
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
const volume = {
  status: 'success',
  data: { resultType: 'matrix', result: [{ metric: {}, values: [[1700000000, '3']] }], stats: {} },
};

describe('ExplorePage', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

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
        json(paramsOf(call).get('query')!.startsWith('sum(') ? volume : streams),
    });
    renderPage(<ExplorePage />);
    fireEvent.change(screen.getByLabelText('LogQL'), { target: { value: '{app="web"}' } });
    await waitFor(() => expect(calls.some((c) => c.url.includes('format_query'))).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Run query' }));
    await screen.findByText('boom');
    expect(screen.getByText('trace_id=t1').getAttribute('title')).toBe('structured metadata');
    await screen.findByRole('img', { name: /^3 lines in 1 steps/ });
    const logCall = calls.find((c) => c.url.includes('query_range') && c.url.includes('limit='))!;
    expect(logCall.headers['X-Loki-Response-Encoding-Flags']).toBe('categorize-labels');
    expect(logCall.headers['X-Scope-OrgID']).toBe('team-a');
  });
});
