import type { DeleteRequestListItem, DeleteRequestProgress } from '@logsvc/api/browser';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  fakeApi,
  instanceOverview,
  json,
  paramsOf,
  renderPage,
  text,
  uiFeatures,
} from '../test-support';
import { DeletesPage } from './DeletesPage';

const item: DeleteRequestListItem = {
  request_id: 'abc123',
  start_time: 1_700_000_000,
  end_time: 1_700_003_600,
  query: '{app="web"}',
  status: '50% Complete',
  created_at: 1_700_003_600,
};
const progress: DeleteRequestProgress = {
  request_id: 'abc123',
  status: '50% Complete',
  cancelable: false,
  process_after: 1_700_003_700,
  tables_total: 4,
  tables_done: 2,
  chunks_total: 9,
  series_processed: 3,
  chunks_processed: 5,
  chunks_rewritten: 1,
  chunks_deleted: 2,
  lines_deleted: 17,
};

describe('DeletesPage', () => {
  it('previews the matching lines, and creates the request only once confirmed', async () => {
    const calls = fakeApi({
      'GET /ui/api/features': () => json(uiFeatures({ deletes: true })),
      'GET /loki/api/v1/delete': () => json([]),
      'GET /logsvc/api/v1/delete/progress': () => json([]),
      'GET /loki/api/v1/format_query': () => json({ status: 'success', data: 'x' }),
      'GET /loki/api/v1/query': () =>
        json({
          status: 'success',
          data: { resultType: 'vector', result: [{ metric: {}, value: [1, '7'] }], stats: {} },
        }),
      'POST /loki/api/v1/delete': () => new Response(null, { status: 204 }),
    });
    renderPage(<DeletesPage />);
    fireEvent.change(await screen.findByLabelText('Stream selector'), {
      target: { value: '{app="web"}' },
    });
    fireEvent.change(screen.getByLabelText('Line contains (optional)'), {
      target: { value: 'error' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Preview deletion' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('matches 7 lines of tenant team-a');
    const count = calls.find((c) => c.url.startsWith('/loki/api/v1/query?'))!;
    expect(paramsOf(count).get('query')).toMatch(
      /^sum\(count_over_time\(\{app="web"\} \|= "error" \[\d+s\]\)\)$/,
    );
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete 7 lines' }));
    await screen.findByText('Delete request created.');
    const post = calls.find((c) => c.method === 'POST')!;
    expect(paramsOf(post).get('query')).toBe('{app="web"} |= "error"');
    expect(post.headers['X-Scope-OrgID']).toBe('team-a');
  });

  it('lists progress, offers force-cancel once picked up, and shows why a cancel is refused', async () => {
    const calls = fakeApi({
      'GET /ui/api/features': () => json(uiFeatures({ deletes: true })),
      'GET /loki/api/v1/delete': () => json([item]),
      'GET /logsvc/api/v1/delete/progress': () => json([progress]),
      'DELETE /loki/api/v1/delete': (call) =>
        paramsOf(call).get('force') === 'true'
          ? new Response(null, { status: 204 })
          : text('Cannot cancel a request that is partially processed\n', 400),
    });
    renderPage(<DeletesPage />);
    const row = (await screen.findByText('abc123')).closest('tr')!;
    expect(row.textContent).toContain(
      '2/4 tables, 5/9 chunks (1 rewritten, 2 deleted), 17 lines deleted',
    );
    expect(within(row).getByRole('progressbar', { name: 'chunks done' })).toHaveProperty(
      'value',
      5,
    );
    fireEvent.click(within(row).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel request' }),
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Cancel refused: 400: Cannot cancel a request that is partially processed',
    );
    fireEvent.click(within(row).getByRole('button', { name: 'Force cancel' }));
    fireEvent.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Force cancel' }),
    );
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'DELETE' && paramsOf(c).get('force') === 'true')).toBe(
        true,
      ),
    );
  });

  it('says when a received request becomes eligible for processing', async () => {
    const createdAt = Math.floor(Date.now() / 1000);
    const waiting: DeleteRequestProgress = {
      ...progress,
      status: 'received',
      cancelable: true,
      process_after: createdAt + 3600,
      tables_total: 0,
      tables_done: 0,
      chunks_total: null,
      chunks_processed: 0,
      chunks_rewritten: 0,
      chunks_deleted: 0,
      lines_deleted: 0,
    };
    fakeApi({
      'GET /ui/api/features': () => json(uiFeatures({ deletes: true })),
      'GET /loki/api/v1/delete': () =>
        json([{ ...item, status: 'received', created_at: createdAt }]),
      'GET /logsvc/api/v1/delete/progress': () => json([waiting]),
    });
    renderPage(<DeletesPage />);
    const row = (await screen.findByText('abc123')).closest('tr')!;
    await within(row).findByText(/^Eligible for processing at/);
    expect(row.textContent).toContain(
      `Eligible for processing at ${new Date((createdAt + 3600) * 1000).toLocaleString()} (in `,
    );
    expect(row.textContent).toMatch(/\(in (59m \d+s|1h 0m)\)/);
    expect(row.textContent).not.toContain('0/0 tables');
    expect(within(row).queryByRole('button', { name: 'Force cancel' })).toBeNull();
  });

  it('says when this process serves no delete API, and asks nothing of it', async () => {
    const calls = fakeApi({ 'GET /ui/api/features': () => json(uiFeatures({ deletes: false })) });
    renderPage(<DeletesPage />);
    expect((await screen.findByRole('note')).textContent).toContain(
      'compactor.retention_enabled: true',
    );
    expect(calls.map((c) => c.url)).toEqual(['/ui/api/features']);
  });

  it('creates a request without counting its lines in a process that answers no query', async () => {
    const calls = fakeApi({
      'GET /ui/api/features': () => json(uiFeatures({ deletes: true, queries: false })),
      'GET /loki/api/v1/delete': () => json([]),
      'GET /logsvc/api/v1/delete/progress': () => json([]),
      'GET /loki/api/v1/format_query': () => json({ status: 'success', data: 'x' }),
      'POST /loki/api/v1/delete': () => new Response(null, { status: 204 }),
    });
    renderPage(<DeletesPage />);
    fireEvent.change(await screen.findByLabelText('Stream selector'), {
      target: { value: '{app="web"}' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Preview deletion' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('not counted');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create delete request' }));
    await screen.findByText('Delete request created.');
    expect(calls.some((c) => c.url.startsWith('/loki/api/v1/query'))).toBe(false);
  });

  it('counts the lines on a live query frontend through the proxy when this process has none', async () => {
    const calls = fakeApi({
      'GET /ui/api/features': () => json(uiFeatures({ deletes: true, queries: false })),
      'GET /ui/api/overview': () =>
        json({
          now: '2026-01-01T00:00:01Z',
          mode: 'cluster',
          instances: [
            instanceOverview({ id: 'logs-compactor-0', self: true, targets: ['compactor', 'ui'] }),
            instanceOverview({ id: 'logs-query-frontend-0', targets: ['query-frontend'] }),
          ],
        }),
      'GET /loki/api/v1/delete': () => json([]),
      'GET /logsvc/api/v1/delete/progress': () => json([]),
      'GET /loki/api/v1/format_query': () => json({ status: 'success', data: 'x' }),
      'GET /ui/api/instances/logs-query-frontend-0/loki/api/v1/query': () =>
        json({
          status: 'success',
          data: { resultType: 'vector', result: [{ metric: {}, value: [1, '4'] }], stats: {} },
        }),
    });
    renderPage(<DeletesPage />);
    fireEvent.change(await screen.findByLabelText('Stream selector'), {
      target: { value: '{app="web"}' },
    });
    await screen.findByText(/counted on logs-query-frontend-0/);
    fireEvent.click(screen.getByRole('button', { name: 'Preview deletion' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('matches 4 lines of tenant team-a');
    expect(calls.some((c) => c.url.startsWith('/loki/api/v1/query'))).toBe(false);
  });
});
