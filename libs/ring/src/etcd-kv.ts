// The `etcd` KV store (Loki's `common.ring.kvstore.store: etcd`), after dskit's kv/etcd client:
// CAS is an etcd transaction guarded by the key's revision, watches are etcd watches.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { ExponentialBackoff, handleWhen, noop, retry } from 'cockatiel';
import { Etcd3, type IOptions, type IRangeResponse, isRecoverableError, type Watcher } from 'etcd3';
import type { Kv } from './kv';

/** dskit's etcd TLS settings (`tls_enabled`, `tls_cert_path`, ...). */
export interface EtcdTlsOptions {
  readonly enabled: boolean;
  readonly certPath?: string;
  readonly keyPath?: string;
  readonly caPath?: string;
  readonly serverName?: string;
  /** Not supported by the Node gRPC client: true is rejected. Set `caPath` instead. */
  readonly insecureSkipVerify?: boolean;
}

/** `common.ring.kvstore.etcd` plus the store's `prefix`. */
export interface EtcdKvOptions {
  /** `host:port` (Loki's style) or URLs with an http(s):// scheme. */
  readonly endpoints: readonly string[];
  /** Bounds each etcd request, including connecting (dskit's dial_timeout). */
  readonly dialTimeoutMs: number;
  /** CAS attempts before giving up on a key that keeps changing (dskit's max_retries). */
  readonly maxRetries: number;
  readonly username?: string;
  readonly password?: string;
  readonly tls?: EtcdTlsOptions;
  /** Prepended to every key; Loki's `kvstore.prefix`, default "collectors/". */
  readonly prefix?: string;
  /** Told about watch failures; the watch keeps retrying regardless. */
  readonly onWatchError?: (error: Error) => void;
}

export const DEFAULT_KV_PREFIX = 'collectors/';

/** Delays between attempts to re-establish a broken watch. */
const WATCH_BACKOFF = { initialDelay: 100, maxDelay: 2_000 };

/** A key's value and its mod revision ('0' when absent). */
interface Revisioned {
  readonly value: Buffer | null;
  readonly modRevision: string;
}

/** A key as read, with the store's revision at the time of reading. */
interface Snapshot extends Revisioned {
  readonly revision: bigint;
}

export class EtcdKv implements Kv {
  private readonly client: Etcd3;
  private readonly prefix: string;
  private readonly endpoints: readonly string[];
  private readonly watches = new Set<KeyWatch>();
  /** CAS calls of this process on one key run one after another: they would only conflict. */
  private readonly casQueues = new Map<string, Promise<void>>();

  constructor(private readonly options: EtcdKvOptions) {
    this.prefix = options.prefix ?? DEFAULT_KV_PREFIX;
    this.endpoints = normaliseEndpoints(options.endpoints, options.tls?.enabled ?? false);
    this.client = new Etcd3(clientOptions(this.endpoints, options));
  }

  async get(key: string): Promise<Buffer | null> {
    return (await this.read(key)).value;
  }

  cas(key: string, update: (current: Buffer | null) => Buffer | null): Promise<void> {
    const previous = this.casQueues.get(key) ?? Promise.resolve();
    const run = previous.then(() => this.casNow(key, update));
    const tail = run.catch(() => undefined);
    this.casQueues.set(key, tail);
    void tail.then(() => {
      if (this.casQueues.get(key) === tail) this.casQueues.delete(key);
    });
    return run;
  }

  async delete(key: string): Promise<void> {
    await this.call('delete', key, () =>
      this.client.delete().key(this.fullKey(key)).options(this.callOptions()).exec(),
    );
  }

  watch(key: string, onValue: (value: Buffer | null) => void): () => void {
    const watch = new KeyWatch(
      this.client,
      this.fullKey(key),
      () => this.read(key),
      onValue,
      (error) => this.options.onWatchError?.(error),
    );
    this.watches.add(watch);
    watch.start();
    return () => {
      this.watches.delete(watch);
      watch.stop();
    };
  }

  async close(): Promise<void> {
    // Watchers must go first: the etcd3 client would otherwise keep reconnecting them.
    for (const watch of this.watches) watch.stop();
    this.watches.clear();
    this.client.close();
  }

  private async read(key: string): Promise<Snapshot> {
    const fullKey = this.fullKey(key);
    const res = await this.call('get', key, () =>
      this.client.get(fullKey).options(this.callOptions()).exec(),
    );
    return { ...fromRange(res), revision: BigInt(res.header.revision) };
  }

  private async casNow(
    key: string,
    update: (current: Buffer | null) => Buffer | null,
  ): Promise<void> {
    const fullKey = this.fullKey(key);
    let current: Revisioned = await this.read(key);
    const attempts = Math.max(1, this.options.maxRetries);
    for (let attempt = 0; attempt < attempts; attempt++) {
      const next = update(current.value);
      if (next === null) return;
      // Unchanged since read: still absent (create revision 0), or the same mod revision.
      const guard =
        current.value === null
          ? this.client.if(fullKey, 'Create', '==', 0)
          : this.client.if(fullKey, 'Mod', '==', current.modRevision);
      const res = await this.call('cas', key, () =>
        guard
          .then(this.client.put(fullKey).value(next))
          .else(this.client.get(fullKey))
          .options(this.callOptions())
          .commit(),
      );
      if (res.succeeded) return;
      // Lost the race: the else branch read the winner's value in the same round trip.
      const range = res.responses[0]?.response_range;
      current = range ? fromRange(range) : await this.read(key);
    }
    throw new Error(
      `etcd CAS of ${fullKey} gave up after ${attempts} attempts: the key kept changing (max_retries)`,
    );
  }

  private fullKey(key: string): string {
    return this.prefix + key;
  }

  private callOptions(): { deadline: number } {
    return { deadline: Date.now() + this.options.dialTimeoutMs };
  }

  /** Runs one etcd request; its errors name the operation, the key and the endpoints. */
  private async call<T>(op: string, key: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(
        `etcd ${op} ${this.fullKey(key)} failed (endpoints ${this.endpoints.join(', ')}): ${reason}`,
        { cause: err },
      );
    }
  }
}

/**
 * One `watch` call: reads the key, delivers it, then follows etcd's events from the next
 * revision. When etcd drops the stream the etcd3 client reconnects and resumes from the last
 * revision seen; on reconnection the key is read again so the latest value is delivered even if
 * history was lost. Values only move forward: anything older than what was delivered is dropped.
 */
class KeyWatch {
  private stopped = false;
  private watcher: Watcher | null = null;
  private delivered = -1n;
  private retryDelayMs = WATCH_BACKOFF.initialDelay;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly client: Etcd3,
    private readonly fullKey: string,
    private readonly read: () => Promise<Snapshot>,
    private readonly onValue: (value: Buffer | null) => void,
    private readonly onError: (error: Error) => void,
  ) {}

  start(): void {
    void this.establish();
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.detach();
  }

  private async establish(): Promise<void> {
    let current: Snapshot;
    try {
      current = await this.read();
    } catch (err) {
      this.retryLater(err);
      return;
    }
    if (this.stopped) return;
    this.deliver(current.value, current.revision);
    // `watcher()` rather than `create()`: it is ours to cancel even before etcd confirms it.
    const watcher = this.client
      .watch()
      .key(this.fullKey)
      .startRevision(String(current.revision + 1n))
      .watcher();
    this.watcher = watcher;
    let reconnection = false;
    watcher
      .on('connected', () => {
        if (reconnection) void this.refresh();
        reconnection = true;
        this.retryDelayMs = WATCH_BACKOFF.initialDelay;
      })
      .on('put', (kv) => this.deliver(kv.value, BigInt(kv.mod_revision)))
      .on('delete', (kv) => this.deliver(null, BigInt(kv.mod_revision)))
      .on('error', (err) => {
        // etcd refused or cancelled the watch (e.g. its start revision was compacted): start over.
        this.detach();
        this.retryLater(err);
      });
  }

  /** After a reconnection: deliver the key's latest value if the events did not already. */
  private async refresh(): Promise<void> {
    try {
      const current = await this.read();
      if (!this.stopped) this.deliver(current.value, current.revision);
    } catch (err) {
      this.onError(asError(err));
    }
  }

  private retryLater(err: unknown): void {
    if (this.stopped) return;
    this.onError(asError(err));
    const delay = this.retryDelayMs;
    this.retryDelayMs = Math.min(delay * 2, WATCH_BACKOFF.maxDelay);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.establish();
    }, delay);
  }

  private detach(): void {
    const watcher = this.watcher;
    this.watcher = null;
    if (watcher) void watcher.cancel().catch(() => undefined);
  }

  private deliver(value: Buffer | null, revision: bigint): void {
    if (this.stopped || revision <= this.delivered) return;
    this.delivered = revision;
    this.onValue(value);
  }
}

function fromRange(res: IRangeResponse): Revisioned {
  const kv = res.kvs[0];
  return kv ? { value: kv.value, modRevision: kv.mod_revision } : { value: null, modRevision: '0' };
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/** `host:port` → `http://host:port` (`https://` with TLS); URLs with a scheme stay as given. */
export function normaliseEndpoints(endpoints: readonly string[], tls: boolean): string[] {
  const cleaned = endpoints.map((e) => e.trim().replace(/\/+$/, '')).filter((e) => e !== '');
  if (cleaned.length === 0) {
    throw new Error('etcd endpoints are empty: set common.ring.kvstore.etcd.endpoints');
  }
  return cleaned.map((e) => (/^https?:\/\//.test(e) ? e : `${tls ? 'https' : 'http'}://${e}`));
}

function clientOptions(hosts: readonly string[], options: EtcdKvOptions): IOptions {
  const { dialTimeoutMs } = options;
  return {
    hosts: [...hosts],
    ...tlsCredentials(options.tls),
    ...(options.username
      ? {
          auth: {
            username: options.username,
            password: options.password ?? '',
            callOptions: () => ({ deadline: Date.now() + dialTimeoutMs }),
          },
        }
      : {}),
    grpcOptions: {
      // As dskit: ping after 10s idle, give up on the connection after 2× the dial timeout, so a
      // dead etcd behind a silent network is noticed and the client reconnects.
      'grpc.keepalive_time_ms': 10_000,
      'grpc.keepalive_timeout_ms': 2 * dialTimeoutMs,
      'grpc.keepalive_permit_without_calls': 1,
      // Reconnect soon after an etcd restart instead of gRPC's default of up to 2 minutes.
      'grpc.initial_reconnect_backoff_ms': 100,
      'grpc.max_reconnect_backoff_ms': 2_000,
      ...(options.tls?.enabled && options.tls.serverName
        ? { 'grpc.ssl_target_name_override': options.tls.serverName }
        : {}),
    },
    faultHandling: {
      // No circuit breaker: with one endpoint it would fail every call for seconds after a blip.
      host: () => noop,
      // A failed request moves on to another endpoint (each attempt picks one at random).
      global: retry(handleWhen(isRecoverableError), { maxAttempts: hosts.length }),
      // etcd3 restarts this sequence (calls next()) whenever a watch stream comes up.
      watchBackoff: new ExponentialBackoff(WATCH_BACKOFF).next(),
    },
  };
}

function tlsCredentials(tls: EtcdTlsOptions | undefined): Pick<IOptions, 'credentials'> {
  if (!tls?.enabled) return {};
  if (tls.insecureSkipVerify) {
    throw new Error(
      'etcd tls_insecure_skip_verify is not supported; set tls_ca_path to the CA that signed etcd',
    );
  }
  if (Boolean(tls.certPath) !== Boolean(tls.keyPath)) {
    throw new Error('etcd TLS needs both tls_cert_path and tls_key_path, or neither');
  }
  return {
    credentials: {
      rootCertificate: tls.caPath
        ? readTlsFile('tls_ca_path', tls.caPath)
        : Buffer.from(rootCertificates.join('\n')),
      ...(tls.keyPath ? { privateKey: readTlsFile('tls_key_path', tls.keyPath) } : {}),
      ...(tls.certPath ? { certChain: readTlsFile('tls_cert_path', tls.certPath) } : {}),
    },
  };
}

function readTlsFile(setting: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new Error(`etcd ${setting} ${file} cannot be read: ${asError(err).message}`, {
      cause: err,
    });
  }
}
