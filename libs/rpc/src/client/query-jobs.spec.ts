import { credentials, makeGenericClientConstructor, Metadata } from '@grpc/grpc-js';
import { LogsvcError } from '@logsvc/errors';
import { JobDispatcher, type JobExecutor, type QueryJob, type SubQuery } from '@logsvc/frontend';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startGrpcServer, type RunningGrpcServer } from '../server/grpc-server';
import { queryQueueGrpcServices, schedulerGrpcServices } from '../server/grpc-services';
import { SCHEDULER_FOR_QUERIER_SERVICE } from '../services';
import { QUERIER_TO_SCHEDULER, SCHEDULER_TO_QUERIER } from '../wire/query-job';
import { ClientPool } from './client-pool';
import { GrpcSchedulerClient, GrpcSchedulerQueue } from './grpc-scheduler-queue';
import { QuerierWorker } from './querier-worker';

const logger = { info: () => {}, warn: () => {}, error: () => {} };
/** A read job told apart by its path name. */
const job = (id: string): QueryJob => ({
  kind: 'label_values',
  tenants: ['acme'],
  params: [],
  name: id,
  legacy: false,
});

const idOf = (j: { name?: string } | null | undefined): string => j?.name ?? '';

const describeJob = (j: QueryJob): string =>
  j.kind === 'sub_query'
    ? `sub_query ${j.query.query}`
    : `${j.kind} ${j.name} ${new URLSearchParams(j.params.map(([n, v]): [string, string] => [n, v]))}`;

/** An executor answering `<querier> <tenant> <job kind> <name> <params>`. */
const echo =
  (name: string): JobExecutor =>
  async (tenant, j) => ({
    status: 200,
    contentType: `text/plain; querier=${name}`,
    body: Buffer.from(`${name} ${tenant} ${describeJob(j)}`),
  });

describe('query jobs over gRPC: frontend → scheduler → querier workers', () => {
  let dispatcher: JobDispatcher;
  let server: RunningGrpcServer;
  let address: string;
  let pool: ClientPool<GrpcSchedulerClient>;
  let frontend: GrpcSchedulerQueue;
  const workers: QuerierWorker[] = [];

  const startWorker = (name: string, execute: JobExecutor, maxConcurrent = 2): QuerierWorker => {
    const w = new QuerierWorker({
      querierId: name,
      maxConcurrent,
      peer: 'scheduler',
      execute,
      logger,
      minBackoffMs: 10,
      maxBackoffMs: 50,
    });
    w.setAddresses([address]);
    workers.push(w);
    return w;
  };

  beforeEach(async () => {
    dispatcher = new JobDispatcher({ maxOutstandingPerTenant: 3 });
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      maxRecvMsgSize: 4 << 20,
      maxSendMsgSize: 4 << 20,
      services: [...queryQueueGrpcServices(dispatcher), ...schedulerGrpcServices(dispatcher)],
    });
    address = `127.0.0.1:${server.port}`;
    pool = new ClientPool((a) => new GrpcSchedulerClient(a, { timeoutMs: 10_000 }));
    frontend = new GrpcSchedulerQueue(() => [address], pool);
  });

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    pool.closeAll();
    await server.stop(0);
  });

  it('carries a read job to a querier and its answer back: status, content type, body', async () => {
    startWorker('q1', echo('q1'));
    const read: QueryJob = {
      kind: 'label_values',
      tenants: ['acme', 'beta'],
      params: [
        ['query', '{app="é&x"}'],
        ['start', '1'],
        ['query', 'second'],
      ],
      name: 'pod/name',
      legacy: true,
    };
    let seen: QueryJob | undefined;
    const got = await frontend.submit('acme', ['grafana'], read, new AbortController().signal);
    expect(got.status).toBe(200);
    expect(got.contentType).toBe('text/plain; querier=q1');
    expect(got.body.toString()).toBe(
      'q1 acme label_values pod/name query=%7Bapp%3D%22%C3%A9%26x%22%7D&start=1&query=second',
    );
    await Promise.all(workers.map((w) => w.stop()));
    workers.length = 0;
    startWorker('q2', async (_tenant, j) => {
      seen = j;
      return { status: 200, contentType: '', body: Buffer.alloc(0) };
    });
    await frontend.submit('acme', [], read, new AbortController().signal);
    expect(seen).toEqual(read);
  });

  it("refuses a job kind it does not know (a newer frontend's) with a clear error, and keeps serving", async () => {
    startWorker('q1', echo('q1'));
    const future = { ...job('/new'), kind: 'future_kind' } as unknown as QueryJob;
    const refused = frontend.submit('acme', [], future, new AbortController().signal);
    await expect(refused).rejects.toThrow(
      'malformed /schedulerpb.SchedulerForFrontend/Submit request: unknown job kind future_kind',
    );
    await expect(refused).rejects.toBeInstanceOf(LogsvcError);
    const got = await frontend.submit('acme', [], job('/old'), new AbortController().signal);
    expect(got.body.toString()).toBe('q1 acme label_values /old ');
  });

  it('carries a typed sub-query as the frontend made it, and an error answer', async () => {
    const sub: SubQuery = {
      kind: 'range',
      query: 'sum by (a) (rate({app="x"} |= "é&" [1m]))',
      startNs: 1_700_000_000_123_456_789n,
      endNs: 1_700_000_600_000_000_000n,
      stepNs: 15_250_000_000n,
      intervalNs: 1_000_000_000n,
      limit: 30,
      direction: 'backward',
      tenants: ['a', 'b'],
      shard: { index: 0, of: 8 },
      categorizeLabels: true,
    };
    let seen: QueryJob | undefined;
    startWorker('q1', async (_tenant, j) => {
      seen = j;
      return { status: 400, contentType: 'text/plain; charset=utf-8', body: Buffer.from('bad') };
    });
    const got = await frontend.submit(
      'a|b',
      [],
      { kind: 'sub_query', query: sub },
      new AbortController().signal,
    );
    expect(seen).toEqual({ kind: 'sub_query', query: sub });
    expect(got).toMatchObject({ status: 400, contentType: 'text/plain; charset=utf-8' });
    expect(got.body.toString()).toBe('bad');
    const { shard: _shard, categorizeLabels: _c, ...plain } = sub;
    await frontend.submit(
      'a|b',
      [],
      { kind: 'sub_query', query: plain },
      new AbortController().signal,
    );
    expect(seen).toEqual({ kind: 'sub_query', query: plain });
  });

  it('answers 429 over gRPC when the tenant has too many outstanding jobs', async () => {
    // No querier: jobs stay queued.
    const signals = [1, 2, 3].map(() => new AbortController());
    const queued = signals.map((c, i) => frontend.submit('acme', [], job(`/${i}`), c.signal));
    await expect.poll(() => dispatcher.queued, { timeout: 2_000 }).toBe(3);
    const refused = frontend.submit('acme', [], job('/4'), new AbortController().signal);
    await expect(refused).rejects.toBeInstanceOf(LogsvcError);
    await expect(refused).rejects.toMatchObject({
      kind: 'limit',
      httpStatus: 429,
      message: 'too many outstanding requests',
    });
    for (const c of signals) c.abort();
    for (const q of queued) await expect(q).rejects.toMatchObject({ kind: 'canceled' });
  });

  it('cancels the job on its querier when the frontend cancels the call', async () => {
    let sawAbort!: () => void;
    let started!: () => void;
    const aborted = new Promise<void>((resolve) => (sawAbort = resolve));
    const running = new Promise<void>((resolve) => (started = resolve));
    startWorker('slow', (_t, _j, signal) => {
      started();
      return new Promise((resolve) => {
        signal.addEventListener('abort', () => {
          sawAbort();
          resolve({ status: 499, contentType: '', body: Buffer.alloc(0) });
        });
      });
    });
    const ac = new AbortController();
    const pending = frontend.submit('acme', [], job('/slow'), ac.signal);
    await running;
    ac.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'canceled' });
    await aborted;
  });

  it('runs the job of a querier whose stream broke on another querier', async () => {
    // A querier that takes the job and dies without answering (its call is cut).
    const Ctor = makeGenericClientConstructor(SCHEDULER_FOR_QUERIER_SERVICE, 'QuerierLoop');
    const dying = new Ctor(address, credentials.createInsecure());
    const call = dying.makeBidiStreamRequest(
      SCHEDULER_FOR_QUERIER_SERVICE.QuerierLoop.path,
      (b: Buffer) => b,
      (b: Buffer) => b,
      new Metadata(),
      {},
    );
    call.on('error', () => {});
    const received = new Promise<string>((resolve) =>
      call.on('data', (b: Buffer) => resolve(idOf(SCHEDULER_TO_QUERIER.decode(b).job))),
    );
    call.write(QUERIER_TO_SCHEDULER.encode({ querierId: 'dying', jobId: '0', answer: null }));
    const answer = frontend.submit('acme', [], job('/survives'), new AbortController().signal);
    expect(await received).toBe('/survives');
    startWorker('q2', echo('q2'));
    call.cancel();
    dying.close();
    const got = await answer;
    expect(got.body.toString()).toBe('q2 acme label_values /survives ');
  });

  it('spreads max_concurrent streams and reconnects after the scheduler restarts', async () => {
    const w = startWorker('q1', echo('q1'), 4);
    await expect.poll(() => dispatcher.querierCount).toBe(1);
    expect(w.streamCount).toBe(4);
    const port = server.port;
    await server.stop(0);
    dispatcher = new JobDispatcher({ maxOutstandingPerTenant: 3 });
    server = await startGrpcServer({
      host: '127.0.0.1',
      port,
      maxRecvMsgSize: 4 << 20,
      maxSendMsgSize: 4 << 20,
      services: [...queryQueueGrpcServices(dispatcher), ...schedulerGrpcServices(dispatcher)],
    });
    const got = await frontend.submit('acme', [], job('/after'), new AbortController().signal);
    expect(got.body.toString()).toBe('q1 acme label_values /after ');
  });

  it('serves the same loop as a frontend without a scheduler (Frontend/Process)', async () => {
    const w = new QuerierWorker({
      querierId: 'via-frontend',
      maxConcurrent: 1,
      peer: 'frontend',
      execute: echo('qf'),
      logger,
    });
    workers.push(w);
    w.setAddresses([address]);
    const got = await dispatcher.submit('acme', [], job('/direct'), new AbortController().signal);
    expect(got.body.toString()).toBe('qf acme label_values /direct ');
    await w.stop();
    // The scheduler side lets go once it sees the stream end.
    await expect.poll(() => dispatcher.querierCount).toBe(0);
  });

  it('refuses to submit when no scheduler is known', async () => {
    const none = new GrpcSchedulerQueue(() => [], pool);
    await expect(
      none.submit('acme', [], job('/x'), new AbortController().signal),
    ).rejects.toMatchObject({ kind: 'unavailable', message: 'no query-scheduler is available' });
  });
});
