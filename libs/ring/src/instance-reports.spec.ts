import { describe, expect, it } from 'vitest';
import { InstanceReports } from './instance-reports';
import { InMemoryKv } from './memory-kv';

const KEY = 'logsvc/instances';

async function eventually(check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('InstanceReports', () => {
  it('shares each process’s report through the key, drops stale ones, and leaves', async () => {
    const kv = new InMemoryKv();
    const old = new Date(Date.now() - 20 * 60_000).toISOString();
    await kv.cas(KEY, () => Buffer.from(JSON.stringify({ gone: { id: 'gone', updated_at: old } })));
    let state = 'starting';
    const a = new InstanceReports({
      kv,
      key: KEY,
      self: () => ({ id: 'a', updated_at: new Date().toISOString(), state }),
      changeDelayMs: 1,
    });
    const b = new InstanceReports({
      kv,
      key: KEY,
      self: () => ({ id: 'b', updated_at: new Date().toISOString(), state: 'running' }),
      changeDelayMs: 1,
    });
    a.start();
    b.start();
    a.changed();
    b.changed();
    await eventually(() => b.others('b').some((r) => r.id === 'a'));
    await eventually(() => a.others('a').some((r) => r.id === 'b'));
    expect(a.others('a').map((r) => r.id)).toEqual(['b']);
    state = 'running';
    a.changed();
    await eventually(() => b.others('b').some((r) => r.id === 'a' && r.state === 'running'));
    await a.leave('a');
    await eventually(() => !b.others('b').some((r) => r.id === 'a'));
    await b.leave('b');
    expect(await kv.get(KEY)).toEqual(Buffer.from('{}'));
  });
});
