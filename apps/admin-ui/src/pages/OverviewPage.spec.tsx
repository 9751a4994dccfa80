import type { InstanceOverview } from '@logsvc/api/browser';
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeSocket, instanceOverview, renderPage, useFakeSockets } from '../test-support';
import { OverviewPage } from './OverviewPage';

function instance(over: Partial<InstanceOverview>): InstanceOverview {
  return instanceOverview({
    self: true,
    http_url: 'http://127.0.0.1:3100',
    targets: ['ingester', 'ui'],
    services: [
      { name: 'ingester', state: 'Running' },
      { name: 'ui', state: 'Running' },
    ],
    updated_at: '2026-01-01T01:00:00Z',
    rings: [
      { ring: 'ingester', state: 'ACTIVE', address: '127.0.0.1:9095', zone: '', healthy: true },
    ],
    ...over,
  });
}

describe('OverviewPage', () => {
  useFakeSockets();

  it('shows each instance from the socket and follows its changes without asking again', () => {
    renderPage(<OverviewPage />);
    expect(FakeSocket.opened).toHaveLength(1);
    const socket = FakeSocket.opened[0];
    expect(socket.url).toMatch(/^ws:\/\/[^/]+\/ui\/ws$/);
    act(() => socket.onopen?.());
    socket.send({ now: '2026-01-01T01:00:00Z', mode: 'cluster', instances: [instance({})] });
    const row = screen.getByRole('rowheader', { name: /logsvc-1/ }).closest('tr')!;
    expect(within(row).getByText('ready')).toBeTruthy();
    expect(within(row).getByText('1h 0m')).toBeTruthy();
    expect(within(row).getByText('ingester: Running')).toBeTruthy();

    socket.send({
      now: '2026-01-01T01:00:05Z',
      mode: 'cluster',
      instances: [
        instance({
          ready: false,
          ready_message: 'Some services are not Running:\nFailed: 1',
          services: [{ name: 'ingester', state: 'Failed' }],
        }),
        instance({ id: 'gone', self: false, reported: false, services: [], rings: [] }),
      ],
    });
    const again = screen.getByRole('rowheader', { name: /logsvc-1/ }).closest('tr')!;
    expect(again.className).toBe('alert');
    expect(within(again).getByText('ingester: Failed').className).toContain('bad');
    expect(within(again).getByText(/^not ready/)).toBeTruthy();
    const gone = screen.getByRole('rowheader', { name: /^gone/ }).closest('tr')!;
    expect(within(gone).getByText('not reporting')).toBeTruthy();
    expect(FakeSocket.opened).toHaveLength(1);
  });

  it('shows a process that stopped reporting as dead: no Running service, no uptime', () => {
    renderPage(<OverviewPage />);
    const socket = FakeSocket.opened[0];
    act(() => socket.onopen?.());
    socket.send({
      now: '2026-01-01T01:00:40Z',
      mode: 'cluster',
      instances: [
        instance({}),
        instance({
          id: 'killed',
          self: false,
          services: [
            { name: 'ingester', state: 'Running' },
            { name: 'ui', state: 'Terminated' },
          ],
        }),
      ],
    });
    const row = screen.getByRole('rowheader', { name: /^killed/ }).closest('tr')!;
    expect(row.className).toBe('alert');
    expect(within(row).getByText('dead: silent for 40s')).toBeTruthy();
    expect(within(row).getByText('ingester: Failed').className).toContain('bad');
    expect(within(row).getByText('ui: Terminated')).toBeTruthy();
    expect(within(row).queryByText(/Running/)).toBeNull();
    // Its uptime stops; no action is offered on it.
    expect(row.querySelectorAll('td')[2]!.textContent).toBe('—');
    expect(within(row).queryByRole('button')).toBeNull();
    expect(within(row).getByRole('link', { name: 'killed' }).getAttribute('href')).toBe(
      '/ui/node?id=killed',
    );
  });
});
