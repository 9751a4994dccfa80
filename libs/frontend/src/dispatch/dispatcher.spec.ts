import { LogsvcError } from '@logsvc/errors';
import { describe, expect, it } from 'vitest';
import type { QueryJob, QueryJobAnswer } from '../downstream';
import { JobDispatcher } from './dispatcher';
import { LocalWorkers } from './local-workers';

/** A job told apart by its path name. */
const job = (id: string): QueryJob => ({
  kind: 'label_values',
  tenants: ['acme'],
  params: [],
  name: id,
  legacy: false,
});
const idOf = (j: QueryJob): string => (j.kind === 'sub_query' ? '' : j.name);
const answer = (text: string): QueryJobAnswer => ({
  status: 200,
  contentType: 'text/plain',
  body: Buffer.from(text),
});
const never = (): AbortSignal => new AbortController().signal;

/** Settles pending promise callbacks and microtasks. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('JobDispatcher', () => {
  it('gives a job to a querier connection and its answer to the caller', async () => {
    const sut = new JobDispatcher({ maxOutstandingPerTenant: 10 });
    const conn = sut.connect('q1');
    const waiting = conn.next();
    const result = sut.submit('acme', ['grafana'], job('/loki/api/v1/labels'), never());
    const a = await waiting;
    expect(a).toMatchObject({ tenant: 'acme', actorPath: ['grafana'], retries: 0 });
    expect(idOf(a.job)).toBe('/loki/api/v1/labels');
    conn.complete(a.id, answer('labels'));
    expect((await result).body.toString()).toBe('labels');
    // Answered once: a second answer to the same job changes nothing.
    conn.complete(a.id, answer('again'));
    expect(sut.queued).toBe(0);
  });

  it('hands jobs out fairly through the queue tree: tenants, then actor paths', async () => {
    const sut = new JobDispatcher({ maxOutstandingPerTenant: 100 });
    const urls: string[] = [];
    for (let i = 0; i < 4; i++) void sut.submit('A', ['heavy'], job(`A-heavy-${i}`), never());
    for (let i = 0; i < 2; i++) void sut.submit('A', ['light'], job(`A-light-${i}`), never());
    for (let i = 0; i < 2; i++) void sut.submit('B', [], job(`B-${i}`), never());
    const conn = sut.connect('q1');
    for (let i = 0; i < 8; i++) {
      const a = await conn.next();
      urls.push(idOf(a.job));
      conn.complete(a.id, answer('ok'));
    }
    expect(urls).toEqual([
      'A-heavy-0',
      'B-0',
      'A-light-0',
      'B-1',
      'A-heavy-1',
      'A-light-1',
      'A-heavy-2',
      'A-heavy-3',
    ]);
  });

  it('retries a job on another querier when the connection holding it breaks', async () => {
    const sut = new JobDispatcher({ maxOutstandingPerTenant: 10 });
    const killed = sut.connect('q1');
    const result = sut.submit('acme', [], job('/query'), never());
    void sut.submit('acme', [], job('/later'), never());
    const first = await killed.next();
    expect(idOf(first.job)).toBe('/query');
    // q2 waits on the queue; the broken job goes ahead of the one already queued.
    const survivor = sut.connect('q2');
    killed.close();
    const again = await survivor.next();
    expect(again).toMatchObject({ id: first.id, retries: 1 });
    expect(idOf(again.job)).toBe('/query');
    survivor.complete(again.id, answer('from q2'));
    expect((await result).body.toString()).toBe('from q2');
    // The late answer of the killed querier is ignored.
    killed.complete(first.id, answer('from q1'));
    expect(idOf((await survivor.next()).job)).toBe('/later');
  });

  it('wakes a connection already waiting when a job is put back', async () => {
    const sut = new JobDispatcher({ maxOutstandingPerTenant: 10 });
    const killed = sut.connect('q1');
    const held = killed.next();
    const survivor = sut.connect('q2').next();
    const result = sut.submit('acme', [], job('/query'), never());
    // The first waiting connection takes it; the second keeps waiting on the queue.
    const a = await held;
    await tick();
    killed.close();
    const b = await survivor;
    expect(b).toMatchObject({ id: a.id, retries: 1 });
    void result;
  });

  it('fails a job after maxRetries broken connections', async () => {
    const sut = new JobDispatcher({ maxOutstandingPerTenant: 10, maxRetries: 2 });
    const result = sut.submit('acme', [], job('/query'), never());
    for (let i = 0; i < 3; i++) {
      const conn = sut.connect(`q${i}`);
      await conn.next();
      conn.close();
    }
    await expect(result).rejects.toMatchObject({
      kind: 'unavailable',
      message:
        'the querier running the request went away 3 times; the request is not retried again',
    });
    expect(sut.queued).toBe(0);
  });

  it('retries a job whose querier died once, then fails it and logs its tenant and query', async () => {
    const warnings: { obj: object; msg: string }[] = [];
    const sut = new JobDispatcher({
      maxOutstandingPerTenant: 10,
      logger: { warn: (obj, msg) => warnings.push({ obj, msg }) },
    });
    const sub: QueryJob = {
      kind: 'sub_query',
      query: {
        kind: 'range',
        query: '{app="x"} | line_format "big"',
        startNs: 0n,
        endNs: 1n,
        stepNs: 1n,
        intervalNs: 0n,
        limit: 5000,
        direction: 'backward',
        tenants: ['acme'],
      },
    };
    const result = sut.submit('acme', [], sub, never());
    const first = sut.connect('q1');
    await first.next();
    first.close();
    const second = sut.connect('q2');
    expect((await second.next()).retries).toBe(1);
    second.close();
    await expect(result).rejects.toMatchObject({
      kind: 'unavailable',
      message:
        'the querier running the request went away 2 times; the request is not retried again',
    });
    // A third querier is not handed the job.
    const third = sut.connect('q3');
    const next = third.next(AbortSignal.timeout(50));
    await expect(next).rejects.toThrow();
    expect(warnings.map((w) => w.obj)).toEqual([
      {
        tenant: 'acme',
        query: '{app="x"} | line_format "big"',
        kind: 'sub_query',
        retries: 1,
      },
      {
        tenant: 'acme',
        query: '{app="x"} | line_format "big"',
        kind: 'sub_query',
        retries: 2,
      },
    ]);
    expect(warnings[1]!.msg).toMatch(/not retrying it again/);
  });

  it('drops a queued job whose caller aborted', async () => {
    const sut = new JobDispatcher({ maxOutstandingPerTenant: 10 });
    const ac = new AbortController();
    const dropped = sut.submit('acme', [], job('/dropped'), ac.signal);
    const kept = sut.submit('acme', [], job('/kept'), never());
    ac.abort();
    await expect(dropped).rejects.toMatchObject({ kind: 'canceled', message: 'context canceled' });
    const conn = sut.connect('q1');
    const a = await conn.next();
    expect(idOf(a.job)).toBe('/kept');
    conn.complete(a.id, answer('kept'));
    expect((await kept).body.toString()).toBe('kept');
    await expect(sut.submit('acme', [], job('/x'), ac.signal)).rejects.toMatchObject({
      kind: 'canceled',
    });
  });

  it('cancels a running job on its querier when the caller aborts', async () => {
    const sut = new JobDispatcher({ maxOutstandingPerTenant: 10 });
    const ac = new AbortController();
    const result = sut.submit('acme', [], job('/slow'), ac.signal);
    const conn = sut.connect('q1');
    const a = await conn.next();
    expect(a.signal.aborted).toBe(false);
    ac.abort();
    expect(a.signal.aborted).toBe(true);
    await expect(result).rejects.toMatchObject({ kind: 'canceled' });
    // The connection answers (late) and takes the next job.
    conn.complete(a.id, answer('too late'));
    const next = sut.submit('acme', [], job('/next'), never());
    const b = await conn.next();
    conn.complete(b.id, answer('next'));
    expect((await next).body.toString()).toBe('next');
  });

  it("refuses a tenant's job over max_outstanding_requests_per_tenant with 429", async () => {
    const sut = new JobDispatcher({ maxOutstandingPerTenant: 2 });
    void sut.submit('acme', [], job('/1'), never());
    void sut.submit('acme', ['a'], job('/2'), never());
    const refused = sut.submit('acme', [], job('/3'), never());
    await expect(refused).rejects.toBeInstanceOf(LogsvcError);
    await expect(refused).rejects.toMatchObject({
      kind: 'limit',
      httpStatus: 429,
      message: 'too many outstanding requests',
    });
    // Other tenants are not limited by acme's queue.
    void sut.submit('other', [], job('/o'), never());
    expect(sut.queued).toBe(3);
  });

  it("reports Loki's queue metrics: enqueued with the path's levels, discarded, time queued", async () => {
    const events: string[] = [];
    const sut = new JobDispatcher({
      maxOutstandingPerTenant: 2,
      maxQueueHierarchyLevels: 1,
      metrics: {
        enqueued: (tenant, level) => events.push(`enqueued ${tenant} ${level}`),
        discarded: (tenant) => events.push(`discarded ${tenant}`),
        dequeued: (tenant, seconds) => events.push(`dequeued ${tenant} ${seconds >= 0}`),
      },
    });
    void sut.submit('A', ['grafana', 'dashboard'], job('1'), never());
    void sut.submit('A', [], job('2'), never());
    await expect(sut.submit('A', [], job('3'), never())).rejects.toMatchObject({ kind: 'limit' });
    const first = sut.connect('q1');
    const a = await first.next();
    // Its querier goes away: the job is retried, not queued again.
    first.close();
    const second = sut.connect('q2');
    sut.connect('q2');
    expect(sut.connectionCount).toBe(2);
    expect((await second.next()).id).toBe(a.id);
    expect(events).toEqual(['enqueued A 1', 'enqueued A 0', 'discarded A', 'dequeued A true']);
  });

  it('refuses to hand a connection a second job before it answered the first', async () => {
    const sut = new JobDispatcher({ maxOutstandingPerTenant: 10 });
    void sut.submit('acme', [], job('/1'), never());
    const conn = sut.connect('q1');
    await conn.next();
    await expect(conn.next()).rejects.toMatchObject({ kind: 'internal' });
  });

  it('stops: waiting connections and queued jobs fail with "queue is stopped"', async () => {
    const sut = new JobDispatcher({ maxOutstandingPerTenant: 10 });
    const queued = sut.submit('acme', [], job('/1'), never());
    await sut.stop();
    await expect(queued).rejects.toMatchObject({
      kind: 'unavailable',
      message: 'queue is stopped',
    });
    await expect(sut.connect('q1').next()).rejects.toMatchObject({ message: 'queue is stopped' });
    await expect(sut.submit('acme', [], job('/2'), never())).rejects.toMatchObject({
      message: 'queue is stopped',
    });
  });
});

describe('LocalWorkers', () => {
  it('runs jobs concurrently on max_concurrent connections and stops cleanly', async () => {
    const sut = new JobDispatcher({ maxOutstandingPerTenant: 100 });
    let running = 0;
    let peak = 0;
    const workers = new LocalWorkers(sut, {
      querierId: 'local',
      concurrency: 3,
      execute: async (tenant, j) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        if (idOf(j) === '/boom') throw new Error('boom');
        return answer(`${tenant} ${idOf(j)}`);
      },
    });
    workers.start();
    const results = await Promise.all(
      Array.from({ length: 9 }, (_, i) => sut.submit('t', [], job(`/${i}`), never())),
    );
    expect(results.map((r) => r.body.toString())).toEqual(
      Array.from({ length: 9 }, (_, i) => `t /${i}`),
    );
    expect(peak).toBe(3);
    const failed = await sut.submit('t', [], job('/boom'), never());
    expect(failed.status).toBe(500);
    expect(failed.body.toString()).toBe('boom');
    await workers.stop();
    expect(sut.querierCount).toBe(0);
  });
});
