import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PushStream, RejectedStream } from '@logsvc/api';
import type { ErrorKind } from '@logsvc/errors';
import { PushError } from './errors';
import { lokiProtobufStreams } from './loki-proto-decode';
import type { OtlpDecodeParams } from './otlp-decode-core';
import type { OtlpWorkerReply, OtlpWorkerRequest } from './otlp-worker';

/** Heap of the decoding thread: a hostile export fails there, not in the server. */
const WORKER_HEAP_MB = 4096;

interface Pending {
  readonly resolve: (streams: Iterable<PushStream | RejectedStream>) => void;
  readonly reject: (err: Error) => void;
}

/**
 * One worker thread that decodes large OTLP exports (protobufjs and `JSON.parse` are single
 * calls that would hold the event loop for seconds on a 50 MB body) and maps them to streams.
 * Its answer comes back as an uncompressed Loki push, read a stream at a time like any other.
 * Started on first use and unref'd; a thread that dies fails its requests with a 400 and is
 * started again for the next one.
 */
export class OtlpDecodeThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  decode(body: Buffer, p: OtlpDecodeParams): Promise<Iterable<PushStream | RejectedStream>> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    // A copy: the body may be a view into a pooled buffer still used by others.
    const copy = new Uint8Array(body);
    const msg: OtlpWorkerRequest = {
      id,
      body: copy,
      type: p.type,
      discoverServiceName: [...p.discoverServiceName],
      nowNs: p.nowNs,
    };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) worker.ref();
      worker.postMessage(msg, [copy.buffer]);
    });
  }

  /** Ends the thread (tests; the server leaves it unref'd). */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }

  private start(): Worker {
    const w = startWorker();
    w.unref();
    w.on('message', (r: OtlpWorkerReply) => this.settle(r));
    const fail = (err: Error): void => {
      if (this.worker === w) this.worker = null;
      const error = new PushError(
        'bad_request',
        `error decoding OTLP logs request: ${err.message}`,
      );
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`decoding thread exited (${code})`)));
    this.worker = w;
    return w;
  }

  private settle(r: OtlpWorkerReply): void {
    const p = this.pending.get(r.id);
    if (!p) return;
    this.pending.delete(r.id);
    if (this.pending.size === 0) this.worker?.unref();
    if ('error' in r) {
      p.reject(new PushError(r.error.kind as ErrorKind, r.error.message));
      return;
    }
    const u = r.streams;
    p.resolve(lokiProtobufStreams(Buffer.from(u.buffer, u.byteOffset, u.byteLength)));
  }
}

/**
 * The worker beside this module, in this module's own form: the compiled `.js` in a build, the
 * `.ts` source where the sources run (tests, whose runner loads TypeScript in every thread).
 */
function startWorker(): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB };
  const file = join(__dirname, `otlp-worker${extname(__filename)}`);
  return new Worker(file, { resourceLimits });
}
