import type { ClusterOverview, InstanceOverview } from '@logsvc/api/browser';
import { act, cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { instanceOverview, renderPage } from '../test-support';
import { OverviewPage } from './OverviewPage';

/** The sockets the page opened; a test plays the server on them. */
class FakeSocket {
  static opened: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.opened.push(this);
  }
  close(): void {}
  send(data: ClusterOverview): void {
    act(() => this.onmessage?.({ data: JSON.stringify({ event: 'overview', data }) }));
  }
}

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
  beforeEach(() => {
    FakeSocket.opened = [];
    vi.stubGlobal('WebSocket', FakeSocket);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

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
});
