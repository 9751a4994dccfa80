import { kindOf } from '@logsvc/errors';
import { newQueryStats } from '@logsvc/logql';
import { describe, expect, it } from 'vitest';
import type { SubQuery, SubQueryResult } from '../downstream';
import { LocalDownstream } from './local-downstream';

const sub = (tenant: string, query: string): SubQuery => ({
  kind: 'range',
  query,
  startNs: 0n,
  endNs: 1n,
  stepNs: 1n,
  intervalNs: 0n,
  limit: 10,
  direction: 'forward',
  tenants: [tenant],
});

const answer = (): SubQueryResult => ({
  result: { type: 'matrix', series: [] },
  stats: newQueryStats(),
});

describe('LocalDownstream', () => {
  it('serves tenants in turn, whatever order their sub-queries were queued in', async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const downstream = new LocalDownstream(
      async (q) => {
        await gate;
        order.push(`${q.tenants[0]}:${q.query}`);
        return answer();
      },
      { workers: 1, maxOutstandingPerTenant: 100 },
    );
    const signal = new AbortController().signal;
    const runs = [
      // The first is taken at once by the only worker, which then waits at the gate.
      downstream.run(sub('a', 'first'), { signal }),
      ...[1, 2, 3].map((i) => downstream.run(sub('a', `a${i}`), { signal })),
      ...[1, 2, 3].map((i) => downstream.run(sub('b', `b${i}`), { signal })),
    ];
    release();
    await Promise.all(runs);
    // After tenant a's turn comes b's: each gets half the worker whatever it queued.
    expect(order).toEqual(['a:first', 'b:b1', 'a:a1', 'b:b2', 'a:a2', 'b:b3', 'a:a3']);
    await downstream.close();
  });

  it('refuses a tenant over max_outstanding_requests_per_tenant with a 429 error', async () => {
    const downstream = new LocalDownstream(() => new Promise(() => {}), {
      workers: 1,
      maxOutstandingPerTenant: 2,
    });
    const signal = new AbortController().signal;
    void downstream.run(sub('a', 'running'), { signal });
    await new Promise((r) => setImmediate(r));
    void downstream.run(sub('a', 'q1'), { signal });
    void downstream.run(sub('a', 'q2'), { signal });
    const err = await downstream.run(sub('a', 'q3'), { signal }).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('limit');
    expect((err as Error).message).toBe('too many outstanding requests');
  });

  it('drops a queued sub-query whose query was aborted, without running it', async () => {
    const ran: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const downstream = new LocalDownstream(
      async (q) => {
        ran.push(q.query);
        await gate;
        return answer();
      },
      { workers: 1, maxOutstandingPerTenant: 10 },
    );
    const keep = new AbortController();
    const drop = new AbortController();
    const first = downstream.run(sub('a', 'first'), { signal: keep.signal });
    const dropped = downstream.run(sub('a', 'dropped'), { signal: drop.signal });
    drop.abort(new Error('client went away'));
    release();
    await first;
    await expect(dropped).rejects.toThrow('client went away');
    expect(ran).toEqual(['first']);
    await downstream.close();
  });
});
