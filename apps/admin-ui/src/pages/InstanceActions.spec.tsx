import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { instanceOverview, json, renderPage } from '../test-support';
import { InstanceActions } from './InstanceActions';

const instance = instanceOverview({ id: 'logsvc-2', targets: ['querier'] });

describe('InstanceActions', () => {
  it('shows the new log level even when the first read was answered before the change', async () => {
    // The instance's level, as its /log_level answers it when a read is served.
    let level = 'warn';
    const reads: string[] = [];
    let releaseFirst!: () => void;
    const firstServed = new Promise<void>((r) => (releaseFirst = r));
    vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      if (method === 'POST') {
        level = new URL(url, 'http://x').searchParams.get('log_level')!;
        return json({ status: 'success', message: `Log level set to ${level}` });
      }
      reads.push(level);
      const answer = `Current log level is ${level}`;
      if (reads.length > 1) return json({ message: answer });
      // The first read is served now (the old level) but its answer arrives after the change,
      // unless the page gives it up.
      return new Promise((resolve, reject) => {
        init.signal?.addEventListener('abort', () =>
          reject(new DOMException('aborted', 'AbortError')),
        );
        void firstServed.then(() => resolve(json({ message: answer })));
      });
    });
    renderPage(<InstanceActions instance={instance} />);
    fireEvent.change(screen.getByLabelText('Log level of logsvc-2'), {
      target: { value: 'debug' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Set level' }));
    await vi.waitFor(() => expect(level).toBe('debug'));
    releaseFirst();
    expect(await screen.findByText('now debug')).toBeTruthy();
    expect(reads).toEqual(['warn', 'debug']);
  });
});
