import {
  makeGenericClientConstructor,
  Metadata,
  type Client,
  type ClientDuplexStream,
} from '@grpc/grpc-js';
import type { QueryJobAnswer, JobExecutor } from '@logsvc/frontend';
import { errorAnswer } from '@logsvc/query-codec';
import type { RpcLogger } from '../server/handler';
import { FRONTEND_SERVICE, SCHEDULER_FOR_QUERIER_SERVICE } from '../services';
import { type ClientTlsFiles, clientCredentials } from '../tls';
import {
  jobFromWire,
  NOTIFY_SHUTDOWN,
  QUERIER_TO_SCHEDULER,
  resultToWire,
  SCHEDULER_TO_QUERIER,
} from '../wire/query-job';

export interface QuerierWorkerOptions {
  /** Sent to the scheduler, which counts a querier's connections by it (`frontend_worker.id`). */
  readonly querierId: string;
  /** Jobs run at once over all addresses (`querier.max_concurrent`). */
  readonly maxConcurrent: number;
  /** `scheduler`: `SchedulerForQuerier/QuerierLoop`; `frontend`: `Frontend/Process`. */
  readonly peer: 'scheduler' | 'frontend';
  readonly execute: JobExecutor;
  readonly logger: RpcLogger & { info(fields: object, message: string): void };
  /** Default 100 MiB each. */
  readonly maxRecvMsgSize?: number;
  readonly maxSendMsgSize?: number;
  /** TLS to the schedulers (or frontends); absent: plaintext. */
  readonly tls?: ClientTlsFiles;
  /** Reconnect backoff; defaults 100 ms doubling up to 5 s. */
  readonly minBackoffMs?: number;
  readonly maxBackoffMs?: number;
}

const DEFAULT_MAX_MSG_SIZE = 100 << 20;

/**
 * A querier's workers (Loki's `querierWorker`): for every scheduler (or frontend) address,
 * streams that each take one job at a time, run it through `execute` and answer it on the
 * stream. `maxConcurrent` streams are spread over the addresses (at least one each, as Loki
 * does). A stream that ends (the scheduler restarted) is opened again with backoff.
 */
export class QuerierWorker {
  private readonly managers = new Map<string, AddressManager>();
  private stopped = false;

  constructor(private readonly options: QuerierWorkerOptions) {}

  /** The addresses to pull from; managers of others are stopped. */
  setAddresses(addresses: readonly string[]): void {
    if (this.stopped) return;
    const wanted = new Set(addresses);
    for (const [address, m] of this.managers) {
      if (wanted.has(address)) continue;
      this.managers.delete(address);
      this.options.logger.info({ address }, 'querier worker: removing connection');
      void m.stop(false);
    }
    for (const address of wanted) {
      if (this.managers.has(address)) continue;
      this.options.logger.info({ address }, 'querier worker: adding connection');
      this.managers.set(address, new AddressManager(address, this.options));
    }
    this.resetConcurrency();
  }

  /** Streams currently open or being opened, over all addresses. */
  get streamCount(): number {
    let n = 0;
    for (const m of this.managers.values()) n += m.streamCount;
    return n;
  }

  /**
   * Tells every scheduler this querier is going (it gets no more jobs), lets running jobs finish
   * and answer, then closes the streams.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    const managers = [...this.managers.values()];
    this.managers.clear();
    await Promise.all(managers.map((m) => m.stop(true)));
  }

  private resetConcurrency(): void {
    const n = this.managers.size;
    let index = 0;
    for (const m of this.managers.values()) {
      let concurrency = Math.floor(this.options.maxConcurrent / n);
      if (index < this.options.maxConcurrent % n) concurrency++;
      m.setConcurrency(Math.max(1, concurrency));
      index++;
    }
  }
}

/** The streams to one address. */
class AddressManager {
  private readonly client: Client;
  private readonly loops: StreamLoop[] = [];

  constructor(
    readonly address: string,
    private readonly options: QuerierWorkerOptions,
  ) {
    const service = options.peer === 'scheduler' ? SCHEDULER_FOR_QUERIER_SERVICE : FRONTEND_SERVICE;
    const Ctor = makeGenericClientConstructor(service, 'QuerierLoop');
    const tls = clientCredentials(options.tls);
    this.client = new Ctor(address, tls.credentials, {
      ...tls.options,
      'grpc.max_receive_message_length': options.maxRecvMsgSize ?? DEFAULT_MAX_MSG_SIZE,
      'grpc.max_send_message_length': options.maxSendMsgSize ?? DEFAULT_MAX_MSG_SIZE,
      // Notice a scheduler that vanished without closing the connection.
      'grpc.keepalive_time_ms': 10_000,
      'grpc.keepalive_timeout_ms': 5_000,
    });
  }

  get streamCount(): number {
    return this.loops.length;
  }

  setConcurrency(n: number): void {
    while (this.loops.length < n) this.loops.push(new StreamLoop(this.client, this.options));
    while (this.loops.length > n) void this.loops.pop()?.stop();
  }

  async stop(notify: boolean): Promise<void> {
    if (notify) await this.notifyShutdown();
    await Promise.all(this.loops.splice(0).map((l) => l.stop()));
    this.client.close();
  }

  private notifyShutdown(): Promise<void> {
    const method =
      this.options.peer === 'scheduler'
        ? SCHEDULER_FOR_QUERIER_SERVICE.NotifyQuerierShutdown
        : FRONTEND_SERVICE.NotifyClientShutdown;
    return new Promise((resolve) => {
      this.client.makeUnaryRequest(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        NOTIFY_SHUTDOWN.encode({ querierId: this.options.querierId }),
        new Metadata(),
        { deadline: Date.now() + 2_000 },
        (err) => {
          if (err) {
            this.options.logger.warn(
              { err, address: this.address },
              'querier worker: shutdown notice failed',
            );
          }
          resolve();
        },
      );
    });
  }
}

/** One stream: opened, fed one job at a time, opened again when it ends until stopped. */
class StreamLoop {
  private stopping = false;
  private call: ClientDuplexStream<Buffer, Buffer> | undefined;
  private running: Promise<void> | undefined;
  private wakeBackoff: (() => void) | undefined;
  private readonly done: Promise<void>;

  constructor(
    private readonly client: Client,
    private readonly options: QuerierWorkerOptions,
  ) {
    this.done = this.run();
  }

  /** Lets a running job finish and answer, then ends the stream and stops reconnecting. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeBackoff?.();
    if (this.running === undefined) this.call?.cancel();
    await this.done;
  }

  private async run(): Promise<void> {
    const min = this.options.minBackoffMs ?? 100;
    const max = this.options.maxBackoffMs ?? 5_000;
    let backoff = min;
    while (!this.stopping) {
      const answered = await this.openOnce();
      if (this.stopping) break;
      // A stream that carried jobs was healthy: reconnect at once, else back off more.
      backoff = answered > 0 ? min : Math.min(max, backoff * 2);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, backoff);
        this.wakeBackoff = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeBackoff = undefined;
    }
  }

  /** Runs one stream until it ends; resolves with the number of jobs it answered. */
  private openOnce(): Promise<number> {
    const method =
      this.options.peer === 'scheduler'
        ? SCHEDULER_FOR_QUERIER_SERVICE.QuerierLoop
        : FRONTEND_SERVICE.Process;
    return new Promise((resolve) => {
      const call = this.client.makeBidiStreamRequest(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        new Metadata(),
        {},
      );
      this.call = call;
      let answered = 0;
      let job: { id: string; cancel: AbortController } | undefined;
      let ended = false;
      const finish = (): void => {
        if (ended) return;
        ended = true;
        job?.cancel.abort();
        this.call = undefined;
        // Wait for a job still running so that stop() sees it done.
        void (this.running ?? Promise.resolve()).then(() => resolve(answered));
      };
      call.on('error', finish);
      call.on('end', finish);
      call.on('close', finish);
      call.on('data', (bytes: Buffer) => {
        let message;
        try {
          message = SCHEDULER_TO_QUERIER.decode(bytes);
        } catch (err) {
          this.options.logger.warn({ err }, 'querier worker: malformed job');
          call.cancel();
          return;
        }
        if (message.cancel) {
          if (job?.id === message.jobId) job.cancel.abort();
          return;
        }
        // Sent before the scheduler heard we stop: not run; it goes back when the stream ends.
        if (this.stopping) return;
        const current = { id: message.jobId, cancel: new AbortController() };
        job = current;
        const tenant = message.tenant;
        this.running = this.execute(tenant, message.job, current.cancel.signal).then((result) => {
          this.running = undefined;
          job = undefined;
          if (ended) return;
          call.write(
            QUERIER_TO_SCHEDULER.encode({
              querierId: '',
              jobId: current.id,
              answer: resultToWire(result),
            }),
          );
          answered++;
          if (this.stopping) call.end();
        });
      });
      call.write(
        QUERIER_TO_SCHEDULER.encode({
          querierId: this.options.querierId,
          jobId: '0',
          answer: null,
        }),
      );
    });
  }

  private async execute(
    tenant: string,
    request: Parameters<typeof jobFromWire>[0],
    signal: AbortSignal,
  ): Promise<QueryJobAnswer> {
    try {
      return await this.options.execute(tenant, jobFromWire(request), signal);
    } catch (err) {
      this.options.logger.warn({ err }, 'querier worker: job failed');
      return errorAnswer(500, err instanceof Error ? err.message : String(err));
    }
  }
}
