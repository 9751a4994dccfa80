import { credentials, makeGenericClientConstructor, Metadata } from '@grpc/grpc-js';
import { LogsvcError } from '@logsvc/errors';
import { JobDispatcher, type HttpJob, type JobExecutor } from '@logsvc/frontend';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startGrpcServer, type RunningGrpcServer } from '../server/grpc-server';
import { SCHEDULER_FOR_QUERIER_SERVICE } from '../services';
import { QUERIER_TO_SCHEDULER, SCHEDULER_TO_QUERIER } from '../wire/http-job';
import { ClientPool } from './client-pool';
import { GrpcSchedulerClient, GrpcSchedulerQueue } from './grpc-scheduler-queue';
import { QuerierWorker } from './querier-worker';

const logger = { info: () => {}, warn: () => {}, error: () => {} };
const job = (url: string, body = ''): HttpJob => ({
  method: body === '' ? 'GET' : 'POST',
  url,
  headers: { 'x-scope-orgid': 'acme', accept: 'application/json' },
  body: Buffer.from(body),
});

/** An executor answering `<querier> <tenant> <method> <url> <body>`. */
const echo =
  (name: string): JobExecutor =>
  async (tenant, j) => ({
    status: 200,
    headers: { 'content-type': 'text/plain', 'x-querier': name },
    body: Buffer.from(`${name} ${tenant} ${j.method} ${j.url} ${j.body.toString()}`),
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
      jobDispatcher: dispatcher,
      schedulerQueue: dispatcher,
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

  it('carries a job to a querier and its answer back: status, headers, body bytes', async () => {
    startWorker('q1', echo('q1'));
    const got = await frontend.submit(
      'acme',
      ['grafana'],
      job('/loki/api/v1/query_range?query=x', 'a=b'),
      new AbortController().signal,
    );
    expect(got.status).toBe(200);
    expect(got.headers['x-querier']).toBe('q1');
    expect(got.body.toString()).toBe('q1 acme POST /loki/api/v1/query_range?query=x a=b');
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
          resolve({ status: 499, headers: {}, body: Buffer.alloc(0) });
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
      call.on('data', (b: Buffer) => resolve(SCHEDULER_TO_QUERIER.decode(b).request?.url ?? '')),
    );
    call.write(QUERIER_TO_SCHEDULER.encode({ querierId: 'dying', jobId: '0', response: null }));
    const answer = frontend.submit('acme', [], job('/survives'), new AbortController().signal);
    expect(await received).toBe('/survives');
    startWorker('q2', echo('q2'));
    call.cancel();
    dying.close();
    const got = await answer;
    expect(got.body.toString()).toBe('q2 acme GET /survives ');
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
      jobDispatcher: dispatcher,
      schedulerQueue: dispatcher,
    });
    const got = await frontend.submit('acme', [], job('/after'), new AbortController().signal);
    expect(got.body.toString()).toBe('q1 acme GET /after ');
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
    expect(got.body.toString()).toBe('qf acme GET /direct ');
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
