import { describe, expect, it } from 'vitest';
import { formatServices, parseServices } from './status';

describe('/services body', () => {
  it('writes one `name => State` line per service and reads it back', () => {
    const services = [
      { name: 'server', state: 'Running' as const },
      { name: 'ingester', state: 'Stopping' as const },
    ];
    const text = formatServices(services);
    expect(text).toBe('server => Running\ningester => Stopping\n');
    expect(parseServices(text)).toEqual(services);
  });

  it('skips lines that are not a service and a known state', () => {
    expect(parseServices('junk\nx => Sleeping\nquerier => Failed')).toEqual([
      { name: 'querier', state: 'Failed' },
    ]);
  });
});
