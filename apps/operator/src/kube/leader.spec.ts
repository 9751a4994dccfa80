import { describe, expect, it } from 'vitest';
import { KubeError, type KubeClient } from './client';
import { LeaderElector } from './leader';

/** One Lease in memory, with the API server's resourceVersion preconditions. */
class LeaseStore {
  lease?: { metadata: Record<string, unknown>; spec: Record<string, unknown> };
  private version = 0;
  readonly client = {
    get: async () => (this.lease === undefined ? undefined : structuredClone(this.lease)),
    call: async (
      method: string,
      path: string,
      body: { metadata: Record<string, unknown>; spec: Record<string, unknown> },
    ) => {
      if (method === 'POST') {
        if (this.lease !== undefined) throw new KubeError(409, method, path, 'AlreadyExists');
      } else if (body.metadata.resourceVersion !== this.lease?.metadata.resourceVersion)
        throw new KubeError(409, method, path, 'Conflict');
      this.lease = {
        metadata: { ...body.metadata, resourceVersion: String(++this.version) },
        spec: body.spec,
      };
      return this.lease;
    },
  } as unknown as KubeClient;
}

const timing = { leaseDurationMs: 1500, renewDeadlineMs: 1000, retryPeriodMs: 200 };
const until = async (what: string, check: () => boolean, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('LeaderElector', () => {
  it('lets one candidate lead; the other takes over once the leader stops renewing', async () => {
    const store = new LeaseStore();
    const leading: string[] = [];
    const candidate = (identity: string, releaseOnStop: boolean) => {
      const abort = new AbortController();
      const sut = new LeaderElector(store.client, {
        namespace: 'ns',
        name: 'op',
        identity,
        ...timing,
      });
      const done = sut.run(
        abort.signal,
        () => leading.push(identity),
        () => leading.push(`-${identity}`),
        releaseOnStop,
      );
      return { sut, abort, done };
    };
    const a = candidate('a', false);
    await until('a to lead', () => leading.includes('a'));
    const b = candidate('b', true);
    // b waits while a renews: longer than a lease duration.
    await new Promise((r) => setTimeout(r, 2500));
    expect(leading).toEqual(['a']);
    expect(store.lease!.spec).toMatchObject({ holderIdentity: 'a', leaseDurationSeconds: 2 });
    expect(store.lease!.spec.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

    // a dies without releasing (SIGKILL): b takes over after the lease duration.
    const killedAt = Date.now();
    a.abort.abort();
    await a.done;
    await until('b to lead', () => leading.includes('b'));
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(timing.leaseDurationMs - 300);
    expect(store.lease!.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });

    // b stops cleanly and releases: a new candidate takes over at its first try.
    b.abort.abort();
    await b.done;
    expect(store.lease!.spec.holderIdentity).toBe('');
    const c = candidate('c', true);
    const startedAt = Date.now();
    await until('c to lead', () => leading.includes('c'));
    expect(Date.now() - startedAt).toBeLessThan(timing.leaseDurationMs);
    c.abort.abort();
    await c.done;
  }, 30_000);

  it('stops leading when renewals fail past the renew deadline', async () => {
    const store = new LeaseStore();
    const events: string[] = [];
    const sut = new LeaderElector(store.client, {
      namespace: 'ns',
      name: 'op',
      identity: 'a',
      ...timing,
    });
    const abort = new AbortController();
    const done = sut.run(
      abort.signal,
      () => events.push('start'),
      () => events.push('stop'),
    );
    await until('leading', () => sut.isLeader);
    // Someone else writes the Lease: a's renewals conflict from now on.
    store.lease!.metadata.resourceVersion = 'taken';
    store.lease!.spec = { ...store.lease!.spec, holderIdentity: 'z' };
    await done;
    expect(events).toEqual(['start', 'stop']);
    expect(sut.isLeader).toBe(false);
  }, 30_000);
});
