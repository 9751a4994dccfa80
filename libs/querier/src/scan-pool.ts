import { availableParallelism } from 'node:os';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ChunkFormatError } from '@logsvc/chunk';
import type { ScanRange, ScanResult } from './chunk-scan';
import { pickWorker } from './pick-worker';
import { sizeWorkerHeaps } from './worker-heap';

/** main → worker: scan these chunks over `range`. */
export interface ScanRequest {
  readonly id: number;
  readonly chunks: Uint8Array[];
  readonly range: ScanRange;
}

/** worker → main: one result per chunk, in order, or why it failed. */
export type ScanReply =
  | { readonly id: number; readonly results: ScanResult[] }
  | { readonly id: number; readonly error: { readonly name: string; readonly message: string } };

export interface ChunkScanPoolOptions {
  /** Worker threads; default: the cores this process may use. */
  readonly size?: number;
  /** Requests queued on one worker at once, so it never waits for the next (default 2). */
  readonly maxInFlightPerWorker?: number;
}

interface Task {
  readonly id: number;
  readonly chunks: Uint8Array[];
  readonly range: ScanRange;
  readonly resolve: (results: ScanResult[]) => void;
  readonly reject: (err: Error) => void;
}

interface PoolWorker {
  readonly worker: Worker;
  readonly inFlight: Map<number, Task>;
}

/**
 * The worker beside this module, in this module's own form: the compiled `.js` in a build, the
 * `.ts` source where the sources run (tests, whose runner loads TypeScript in every thread).
 */
function startWorker(): Worker {
  sizeWorkerHeaps();
  const file = join(__dirname, `scan-worker${extname(__filename)}`);
  return new Worker(file);
}

function replyError(e: { name: string; message: string }): Error {
  if (e.name === 'ChunkFormatError') return new ChunkFormatError(e.message);
  const err = new Error(e.message);
  err.name = e.name;
  return err;
}

/**
 * Worker threads that decode chunks and run the line prefilter off the event loop, so a query
 * over many chunks uses every core. Workers start on first use, do not keep the process
 * alive (unref'd), and are replaced if one dies; `close` ends them (its owner does, when it
 * stops).
 */
export class ChunkScanPool {
  readonly size: number;
  private readonly maxInFlight: number;
  private readonly workers: PoolWorker[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: ChunkScanPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? availableParallelism());
    this.maxInFlight = Math.max(1, options.maxInFlightPerWorker ?? 2);
  }

  /** Entries of each chunk in `range`, as `scanChunk` gives them; rejects on corrupt bytes. */
  scan(chunks: readonly Uint8Array[], range: ScanRange): Promise<ScanResult[]> {
    if (this.closed) return Promise.reject(new Error('chunk scan pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, chunks: [...chunks], range, resolve, reject });
      this.dispatch();
    });
  }

  /** Ends the workers; scans not answered yet are rejected. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const err = new Error('chunk scan pool is closed');
    for (const t of this.queue.splice(0)) t.reject(err);
    const workers = this.workers.splice(0);
    for (const w of workers) for (const t of w.inFlight.values()) t.reject(err);
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const w = this.pickWorker();
      if (w === undefined) return;
      const task = this.queue.shift()!;
      // Exact copies, transferred: a Buffer may be a view of a larger (pooled) ArrayBuffer,
      // which structured cloning would copy whole.
      const chunks = task.chunks.map((c) => new Uint8Array(c));
      const needle = new Uint8Array(task.range.needle);
      const request: ScanRequest = { id: task.id, chunks, range: { ...task.range, needle } };
      w.inFlight.set(task.id, task);
      w.worker.postMessage(request, [...chunks.map((c) => c.buffer), needle.buffer]);
    }
  }

  /** The least busy worker with room, starting one while below `size`. */
  private pickWorker(): PoolWorker | undefined {
    return pickWorker(this.workers, this.size, this.maxInFlight, () => this.spawn());
  }

  private spawn(): PoolWorker {
    const worker = startWorker();
    worker.unref();
    const pw: PoolWorker = { worker, inFlight: new Map() };
    worker.on('message', (reply: ScanReply) => {
      const task = pw.inFlight.get(reply.id);
      if (task === undefined) return;
      pw.inFlight.delete(reply.id);
      if ('error' in reply) task.reject(replyError(reply.error));
      else task.resolve(reply.results);
      this.dispatch();
    });
    const fail = (err: Error): void => {
      const i = this.workers.indexOf(pw);
      if (i < 0) return;
      this.workers.splice(i, 1);
      for (const t of pw.inFlight.values()) t.reject(err);
      pw.inFlight.clear();
      if (!this.closed) this.dispatch();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`chunk scan worker exited with code ${code}`)));
    this.workers.push(pw);
    return pw;
  }
}

/**
 * The pool `querier.scan_workers` asks for: 0 = one worker per core this process may use,
 * a negative number = none (every chunk is read on the event loop), else that many workers.
 */
export function scanPoolFor(workers: number): ChunkScanPool | null {
  if (workers < 0) return null;
  return new ChunkScanPool(workers === 0 ? {} : { size: workers });
}
