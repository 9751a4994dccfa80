import { availableParallelism } from 'node:os';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { RunQueryResult } from '@logsvc/logql';
import type { ChunkStoreSettings } from '@logsvc/storage';
import { QueryAbortedError } from '../errors';
import type {
  MemoryRequest,
  SnapshotSource,
  PoolMessage,
  PoolQuery,
  PoolReply,
  QueryWorkerData,
} from './pool-query';
import {
  QueryPoolClosedError,
  QueryWorkerExitedError,
  rebuildError,
  serializeError,
} from './worker-errors';
import { pickAffineWorker } from '../pick-worker';
import { sizeWorkerHeaps } from '../worker-heap';

export interface QueryWorkerPoolOptions {
  /** The chunk store each worker opens (the same objects as the main thread's). */
  readonly store: ChunkStoreSettings;
  /** Worker threads; default: the cores this process may use. */
  readonly size?: number;
  /**
   * Queries one worker runs at once (default 2): while one waits for chunks from the object
   * store, the worker evaluates another.
   */
  readonly queriesPerWorker?: number;
  /** `querier.block_cache_mb` of each worker (see `ChunkDecoder`). */
  readonly blockCacheMb?: number;
  /**
   * Told when a worker dies (killed, out of memory) with the queries it was running: they fail
   * and are not run again, so that one query cannot take down every worker in turn.
   */
  readonly onWorkerDied?: (why: string, queries: readonly PoolQuery[]) => void;
}

interface Task {
  readonly id: number;
  readonly query: PoolQuery;
  /** Where the query's memory snapshots come from (queries with a `window`). */
  readonly memory: SnapshotSource | null;
  readonly signal: AbortSignal;
  readonly queuedAt: number;
  /** Seconds from `run` until a worker took it. */
  queuedFor: number;
  readonly resolve: (result: RunQueryResult) => void;
  readonly reject: (err: Error) => void;
  /** Answered already (aborted, or its worker died); a late reply only frees the slot. */
  settled: boolean;
  readonly onAbort: () => void;
  /**
   * What the memory snapshots sent to the worker need kept reachable (`MemorySnapshot.retain`):
   * held until the worker's reply, not only until the task settles, since an aborted query's
   * worker may still read.
   */
  readonly retained: object[];
}

interface PoolWorker {
  readonly worker: Worker;
  readonly inFlight: Map<number, Task>;
}

/**
 * The worker beside this module, in this module's own form: the compiled `.js` in a build, the
 * `.ts` source where the sources run (tests, whose runner loads TypeScript in every thread).
 */
function startWorker(data: QueryWorkerData): Worker {
  sizeWorkerHeaps();
  const file = join(__dirname, `query-worker${extname(__filename)}`);
  return new Worker(file, { workerData: data });
}

/**
 * Worker threads that each run whole LogQL queries over the chunk store (sub-queries of the
 * query frontend), and over snapshots of the in-process ingester's streams that the main
 * thread takes when a worker's query asks for them, so they use every core. Queries wait in
 * one queue, in order per worker, while their worker is full: a shard's sub-queries go to one
 * worker, others to the least busy (`pickAffineWorker`). Workers start on first use, do not
 * keep the process alive, and are replaced when one dies (its queries fail with
 * `unavailable`, which the caller may retry); `close` ends them.
 */
export class QueryWorkerPool {
  readonly size: number;
  private readonly perWorker: number;
  private readonly workers: PoolWorker[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: QueryWorkerPoolOptions) {
    this.size = Math.max(1, options.size ?? availableParallelism());
    this.perWorker = Math.max(1, options.queriesPerWorker ?? 2);
  }

  /**
   * The query's answer as the main thread's Querier would give it (errors are the same
   * LogsvcErrors). `signal` cancels it: the caller gets a `canceled` error at once and the
   * worker stops the query. The time spent queued is added to `stats.summary.queueTime`.
   * A query with a `window` reads memory through `memory`, called on this thread.
   */
  run(
    query: PoolQuery,
    signal: AbortSignal,
    memory: SnapshotSource | null = null,
  ): Promise<RunQueryResult> {
    if (this.closed) return Promise.reject(new QueryPoolClosedError());
    if (signal.aborted) return Promise.reject(new QueryAbortedError(false));
    if (query.window !== undefined && memory === null) {
      return Promise.reject(new Error('a pool query that reads memory needs a memory source'));
    }
    return new Promise((resolve, reject) => {
      const task: Task = {
        id: this.nextId++,
        query,
        memory,
        signal,
        queuedAt: performance.now(),
        queuedFor: 0,
        resolve,
        reject,
        settled: false,
        onAbort: () => this.abort(task),
        retained: [],
      };
      signal.addEventListener('abort', task.onAbort, { once: true });
      this.queue.push(task);
      this.dispatch();
    });
  }

  /** Queries the workers run at once when all are started (`size` × queries per worker). */
  get slots(): number {
    return this.size * this.perWorker;
  }

  /** Queries queued or running. */
  get pending(): number {
    let running = 0;
    for (const w of this.workers) running += w.inFlight.size;
    return this.queue.length + running;
  }

  /** Ends the workers; queries not answered yet fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.queue.splice(0)) this.settle(t, new QueryPoolClosedError());
    const workers = this.workers.splice(0);
    for (const w of workers)
      for (const t of w.inFlight.values()) this.settle(t, new QueryPoolClosedError());
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }

  private abort(task: Task): void {
    if (task.settled) return;
    const queued = this.queue.indexOf(task);
    if (queued >= 0) this.queue.splice(queued, 1);
    else {
      const owner = this.workers.find((w) => w.inFlight.get(task.id) === task);
      owner?.worker.postMessage({ type: 'cancel', id: task.id } satisfies PoolMessage);
    }
    this.settle(task, new QueryAbortedError(false));
  }

  private settle(task: Task, outcome: Error | RunQueryResult): void {
    if (task.settled) return;
    task.settled = true;
    task.signal.removeEventListener('abort', task.onAbort);
    if (outcome instanceof Error) task.reject(outcome);
    else task.resolve(outcome);
  }

  private dispatch(): void {
    for (let i = 0; i < this.queue.length && !this.closed;) {
      const task = this.queue[i]!;
      const w = this.workerFor(task);
      if (w === undefined) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      task.queuedFor = (performance.now() - task.queuedAt) / 1000;
      w.inFlight.set(task.id, task);
      w.worker.ref(); // a running query keeps the process alive, an idle worker does not
      w.worker.postMessage({ type: 'run', id: task.id, query: task.query } satisfies PoolMessage);
    }
  }

  /** Where `task` runs (its shard's worker, see `pickAffineWorker`), or undefined to wait. */
  private workerFor(task: Task): PoolWorker | undefined {
    return pickAffineWorker(this.workers, task.query.shard?.index, this.size, this.perWorker, () =>
      this.spawn(),
    );
  }

  /**
   * Takes the snapshot a worker's query asks for and transfers its buffers (no copy); a query
   * already answered (aborted) gets an error, so the worker's query ends too.
   */
  private answerMemory(
    pw: PoolWorker,
    { id, memory: { req, tenant, select } }: MemoryRequest,
  ): void {
    const task = pw.inFlight.get(id);
    let message: PoolMessage;
    let transfer: ArrayBuffer[] = [];
    try {
      if (task === undefined || task.settled) throw new QueryAbortedError(false);
      if (task.memory === null) throw new Error('the query has no memory source');
      const { retain, ...snapshot } = task.memory(tenant, select);
      if (retain !== undefined) for (const r of retain) task.retained.push(r);
      message = { type: 'memory', id, req, snapshot };
      transfer = [...snapshot.buffers];
    } catch (err) {
      message = { type: 'memory', id, req, error: serializeError(err) };
    }
    pw.worker.postMessage(message, transfer);
  }

  private spawn(): PoolWorker {
    const worker = startWorker({
      store: this.options.store,
      ...(this.options.blockCacheMb === undefined
        ? {}
        : { blockCacheMb: this.options.blockCacheMb }),
    });
    const pw: PoolWorker = { worker, inFlight: new Map() };
    worker.on('message', (reply: PoolReply) => {
      if ('memory' in reply) {
        this.answerMemory(pw, reply);
        return;
      }
      const task = pw.inFlight.get(reply.id);
      if (task === undefined) return;
      pw.inFlight.delete(reply.id);
      task.retained.length = 0; // the worker is done with its snapshots
      if (pw.inFlight.size === 0) worker.unref();
      if ('error' in reply) this.settle(task, rebuildError(reply.error));
      else {
        reply.result.stats.summary.queueTime += task.queuedFor;
        this.settle(task, reply.result);
      }
      this.dispatch();
    });
    const fail = (why: string): void => {
      const i = this.workers.indexOf(pw);
      if (i < 0) return;
      this.workers.splice(i, 1);
      const lost = [...pw.inFlight.values()].filter((t) => !t.settled).map((t) => t.query);
      if (lost.length > 0 && !this.closed) this.options.onWorkerDied?.(why, lost);
      for (const t of pw.inFlight.values()) this.settle(t, new QueryWorkerExitedError(why));
      pw.inFlight.clear();
      // A replacement starts when the queue needs one.
      this.dispatch();
    };
    worker.on('error', (err) => fail(err.message));
    worker.on('exit', (code) => fail(`exited with code ${code}`));
    // After the listeners: adding a 'message' listener refs the worker again.
    worker.unref();
    this.workers.push(pw);
    return pw;
  }
}

/**
 * The pool `querier.query_workers` asks for: 0 = one worker per core this process may use,
 * a negative number = none (every query runs on the event loop), else that many workers.
 */
export function queryPoolFor(
  workers: number,
  options: Omit<QueryWorkerPoolOptions, 'size'>,
): QueryWorkerPool | null {
  if (workers < 0) return null;
  return new QueryWorkerPool(workers === 0 ? options : { ...options, size: workers });
}
