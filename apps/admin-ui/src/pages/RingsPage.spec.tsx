import type { RingStatus, RingStatusShard } from '@logsvc/api/browser';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, json, renderPage, uiFeatures } from '../test-support';
import { RingsPage } from './RingsPage';

function shard(id: string, healthy: boolean, ownership: number): RingStatusShard {
  return {
    id,
    state: healthy ? 'ACTIVE' : 'UNHEALTHY',
    address: `${id}:9095`,
    timestamp: '2026-01-01T00:00:00Z',
    registered_timestamp: '2026-01-01T00:00:00Z',
    read_only: false,
    read_only_updated_timestamp: '0001-01-01T00:00:00Z',
    zone: 'zone-a',
    tokens: [1, 2],
    num_tokens: 2,
    ownership,
    healthy,
    heartbeat_age_ms: healthy ? 1000 : 600_000,
  };
}

const ingesters: RingStatus = {
  shards: [shard('ingester-1', true, 60), shard('ingester-2', false, 40)],
  now: '2026-01-01T00:00:00Z',
};

describe('RingsPage', () => {
  it('asks only for the rings the server answers for, the scheduler once it exists', async () => {
    const calls = fakeApi({
      'GET /ui/api/features': () => json(uiFeatures({ rings: ['ingester', 'scheduler'] })),
      'GET /ring': () => json(ingesters),
      'GET /scheduler/ring': () => json({ shards: [shard('scheduler-1', true, 100)], now: '' }),
    });
    renderPage(<RingsPage />);
    const tabs = await screen.findByRole('navigation', { name: 'Rings' });
    await within(tabs).findByRole('link', { name: 'Query scheduler' });
    expect(
      within(tabs)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Ingester', 'Query scheduler']);
    expect(screen.getByRole('img', { name: /ingester-1 60\.0%, ingester-2 40\.0%/ })).toBeTruthy();
    // No request for a ring this server does not serve (it would answer 404).
    expect(calls.map((c) => c.url).sort()).toEqual([
      '/ring',
      '/scheduler/ring',
      '/ui/api/features',
    ]);
  });

  it('highlights the unhealthy member and forgets it only after confirmation', async () => {
    const calls = fakeApi({
      'GET /ui/api/features': () => json(uiFeatures()),
      'GET /ring': () => json(ingesters),
      'POST /ring': () => json({ ...ingesters, shards: [ingesters.shards[0]] }),
    });
    renderPage(<RingsPage />);
    const bad = (await screen.findByRole('rowheader', { name: 'ingester-2' })).closest('tr')!;
    expect(bad.className).toBe('alert');
    expect(
      within(screen.getByRole('rowheader', { name: 'ingester-1' }).closest('tr')!).queryByRole(
        'button',
      ),
    ).toBeNull();
    fireEvent.click(within(bad).getByRole('button', { name: 'Forget' }));
    const dialog = screen.getByRole('dialog');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Forget' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toBe('forget=ingester-2');
    expect(post.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });
});
