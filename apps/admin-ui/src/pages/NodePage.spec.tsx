import type { InstanceOverview } from '@logsvc/api/browser';
import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  FakeSocket,
  fakeApi,
  instanceOverview,
  json,
  renderPage,
  text,
  useFakeSockets,
} from '../test-support';
import { NodePage } from './NodePage';

const METRICS = [
  '# HELP process_resident_memory_bytes Resident memory size in bytes.',
  '# TYPE process_resident_memory_bytes gauge',
  'process_resident_memory_bytes 67108864',
  'loki_ingester_memory_streams{tenant="a"} 5',
  'loki_ingester_memory_streams{tenant="b"} 7',
  'loki_query_scheduler_queue_length{user="a"} 3',
  '',
].join('\n');

function node(over: Partial<InstanceOverview> = {}): InstanceOverview {
  return instanceOverview({
    id: 'vm',
    ring_ids: ['vm', 'ingester-7'],
    targets: ['all'],
    started_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T01:00:00Z',
    services: [
      { name: 'ingester', state: 'Running' },
      { name: 'compactor', state: 'Terminated' },
    ],
    rings: [
      { ring: 'ingester', state: 'ACTIVE', address: '10.0.0.1:9095', zone: 'a', healthy: true },
    ],
    ...over,
  });
}

describe('NodePage', () => {
  useFakeSockets();
  afterEach(() => history.replaceState(null, '', '/'));

  it('shows a live node: build, services, rings, config and charts of its own metrics', async () => {
    history.replaceState(null, '', '/ui/node?id=ingester-7');
    const calls = fakeApi({
      'GET /ui/api/instances/vm/metrics': () => text(METRICS),
      'GET /ui/api/instances/vm/loki/api/v1/status/buildinfo': () =>
        json({
          version: '0.1.0',
          revision: 'abc123',
          branch: 'main',
          buildUser: '',
          buildDate: '2026-01-01',
          goVersion: 'node v20.19.0',
        }),
      'GET /ui/api/instances/vm/config': () => text('auth_enabled: false\n'),
      'GET /ui/api/instances/vm/log_level': () => json({ message: 'Current log level is info' }),
      'GET /ui/api/instances/vm/ingester/prepare_shutdown': () => text('unset'),
    });
    renderPage(<NodePage />);
    act(() => FakeSocket.opened[0]!.onopen?.());
    FakeSocket.opened[0]!.send({
      now: '2026-01-01T01:00:05Z',
      mode: 'cluster',
      instances: [node()],
    });
    // Reached by its ingester ring ID, shown under its own ID: one node, no phantom.
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Node vm');
    expect(screen.getAllByRole('status')[0]!.textContent).toContain('alive');
    expect(screen.getByText('1h 0m')).toBeTruthy();
    await screen.findByText('abc123');
    const services = screen.getByRole('heading', { name: 'Services' }).nextElementSibling!;
    expect(within(services as HTMLElement).getByText('Running')).toBeTruthy();
    await screen.findByRole('img', { name: 'Streams in memory: 12' });
    expect(screen.getByRole('img', { name: 'Memory (RSS): 64.0 MiB' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Query queue length: 3' })).toBeTruthy();
    await screen.findByText('auth_enabled: false');
    expect(calls.every((c) => c.url.startsWith('/ui/api/instances/vm/'))).toBe(true);
  });

  it('shows a dead node as dead, with no stale Running service and no metrics asked', () => {
    history.replaceState(null, '', '/ui/node?id=vm');
    const calls = fakeApi({});
    renderPage(<NodePage />);
    act(() => FakeSocket.opened[0]!.onopen?.());
    FakeSocket.opened[0]!.send({
      now: '2026-01-01T01:05:00Z',
      mode: 'cluster',
      instances: [instanceOverview({ id: 'other', self: true }), node()],
    });
    expect(screen.getAllByRole('status')[0]!.textContent).toContain('dead: no report for 5m 0s');
    const services = screen.getByRole('heading', { name: 'Services' }).nextElementSibling!;
    const states = within(services as HTMLElement)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.textContent);
    expect(states).toEqual([
      'ingesterFailed (the process stopped reporting)',
      'compactorTerminated (the process stopped reporting)',
    ]);
    expect(screen.getByText('— (not running)')).toBeTruthy();
    expect(calls).toEqual([]);
  });
});
