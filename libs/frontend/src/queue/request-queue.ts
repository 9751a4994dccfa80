import { LogsvcError } from '@logsvc/errors';
import { DEFAULT_MAX_QUEUE_HIERARCHY_LEVELS, queuePathFor } from './actor-path';
import { Mapping, START_INDEX } from './mapping';
import { EMPTY, TreeQueue } from './tree-queue';

/** Loki's `ErrTooManyRequests` text, answered with 429. */
export const TOO_MANY_OUTSTANDING_REQUESTS = 'too many outstanding requests';
/** Loki's `ErrStopped` text. */
export const QUEUE_STOPPED = 'queue is stopped';

export interface RequestQueueOptions {
  /** `max_outstanding_requests_per_tenant`: queued requests a tenant may have at once. */
  readonly maxOutstandingPerTenant: number;
  /** `max_queue_hierarchy_levels` (default 3; 0 turns sub-queues off and ignores actor paths). */
  readonly maxQueueHierarchyLevels?: number;
}

export interface Dequeued<T> {
  readonly tenant: string;
  readonly item: T;
}

interface Consumer {
  connections: number;
  shuttingDown: boolean;
}

/**
 * A querier's connection to the queue (Loki's `QuerierLoop`): it is registered while open and
 * carries its own round-robin position over the tenants.
 */
export interface QuerierConnection<T> {
  readonly querierId: string;
  /** The next request for this querier, or `undefined` when none is queued (or it is shutting down). */
  dequeue(): Dequeued<T> | undefined;
  /**
   * Waits for the next request. Rejects with kind `canceled` when `signal` aborts and with kind
   * `unavailable` ("queue is stopped") once the queue stops.
   */
  next(signal?: AbortSignal): Promise<Dequeued<T>>;
  /** Unregisters this connection; the querier is forgotten when its last one closes. */
  close(): void;
}

/**
 * The query scheduler's request queue (Loki's `queue.RequestQueue`): one queue tree per tenant
 * (see `TreeQueue`), the tenants served round-robin, each tree serving its local queue and its
 * sub-queues round-robin, FIFO inside every queue. A tenant may have at most
 * `maxOutstandingPerTenant` queued requests. Empty queues and trees are removed at once.
 *
 * Not thread-safe and needs not be: every method runs to completion on the event loop.
 */
export class RequestQueue<T> {
  private readonly maxOutstandingPerTenant: number;
  private readonly maxLevels: number;
  private readonly tenants = new Mapping<TreeQueue<T>>();
  private readonly consumers = new Map<string, Consumer>();
  private readonly wakers = new Set<() => void>();
  private anonymousCursor = START_INDEX;
  private total = 0;
  private stopped = false;
  private wakePending = false;

  constructor(options: RequestQueueOptions) {
    this.maxOutstandingPerTenant = options.maxOutstandingPerTenant;
    this.maxLevels = options.maxQueueHierarchyLevels ?? DEFAULT_MAX_QUEUE_HIERARCHY_LEVELS;
  }

  /**
   * Queues `item` for `tenant` in the sub-queue named by `actorPath` (see `parseActorPath`).
   * Throws kind `limit` (429, "too many outstanding requests") when the tenant's queue is full,
   * kind `internal` (Loki's 500) for a path deeper than `maxQueueHierarchyLevels` or an empty
   * tenant, kind `unavailable` once stopped. A refused request creates no queue.
   */
  enqueue(tenant: string, actorPath: readonly string[], item: T): void {
    const path = queuePathFor(actorPath, this.maxLevels);
    if (this.stopped) throw new LogsvcError('unavailable', QUEUE_STOPPED);
    if (tenant === '') {
      throw new LogsvcError('internal', 'no queue found: empty tenant is not allowed');
    }
    let queue = this.tenants.get(tenant);
    if ((queue?.length ?? 0) + 1 > this.maxOutstandingPerTenant) {
      throw new LogsvcError('limit', TOO_MANY_OUTSTANDING_REQUESTS);
    }
    if (queue === undefined) {
      queue = new TreeQueue<T>(tenant);
      this.tenants.put(tenant, queue);
    }
    queue.enqueue(path, item);
    this.total++;
    this.wake();
  }

  /**
   * The next request by round-robin over the tenants, or `undefined` when nothing is queued. Uses
   * one position shared by all callers of this method; queriers use `connect` for their own.
   */
  dequeue(): Dequeued<T> | undefined {
    const result = this.dequeueFrom(this.anonymousCursor);
    if (result === undefined) return undefined;
    this.anonymousCursor = result.cursor;
    return result.dequeued;
  }

  /** Queued requests of `tenant`, or of all tenants. */
  length(tenant?: string): number {
    if (tenant === undefined) return this.total;
    return this.tenants.get(tenant)?.length ?? 0;
  }

  /** Tenants with queued requests. */
  get tenantCount(): number {
    return this.tenants.size;
  }

  /** Queriers with at least one open connection or not yet forgotten. */
  get querierCount(): number {
    return this.consumers.size;
  }

  /** Open querier connections (Loki's connected consumers: one per querier worker). */
  get connectionCount(): number {
    let n = 0;
    for (const c of this.consumers.values()) n += c.connections;
    return n;
  }

  /** Registers a querier connection (Loki's `RegisterConsumerConnection`). */
  connect(querierId: string): QuerierConnection<T> {
    const existing = this.consumers.get(querierId);
    if (existing === undefined) {
      this.consumers.set(querierId, { connections: 1, shuttingDown: false });
    } else {
      existing.connections++;
      existing.shuttingDown = false;
    }
    this.wake();
    let cursor = START_INDEX;
    let open = true;
    const dequeue = (): Dequeued<T> | undefined => {
      if (!open || this.consumers.get(querierId)?.shuttingDown !== false) return undefined;
      const result = this.dequeueFrom(cursor);
      if (result === undefined) return undefined;
      cursor = result.cursor;
      return result.dequeued;
    };
    return {
      querierId,
      dequeue,
      next: (signal) => this.waitFor(dequeue, signal),
      close: () => {
        if (!open) return;
        open = false;
        this.disconnect(querierId);
      },
    };
  }

  /**
   * A querier announced a graceful shutdown (Loki's `NotifyConsumerShutdown`): it gets no more
   * requests, and is forgotten once its connections are closed.
   */
  notifyQuerierShutdown(querierId: string): void {
    const consumer = this.consumers.get(querierId);
    if (consumer === undefined) return;
    if (consumer.connections === 0) this.consumers.delete(querierId);
    else consumer.shuttingDown = true;
    this.wake();
  }

  /**
   * Stops the queue as Loki's `stopping`: waits until every queued request is dequeued or no
   * querier is connected, then refuses enqueues and fails waiting dequeues with "queue is stopped".
   */
  async stop(): Promise<void> {
    while (this.total > 0 && this.connectedQueriers() > 0) {
      await new Promise<void>((resolve) => {
        const waker = (): void => {
          this.wakers.delete(waker);
          resolve();
        };
        this.wakers.add(waker);
      });
    }
    this.stopped = true;
    this.wake();
  }

  private connectedQueriers(): number {
    let n = 0;
    for (const c of this.consumers.values()) if (c.connections > 0) n++;
    return n;
  }

  private disconnect(querierId: string): void {
    const consumer = this.consumers.get(querierId);
    if (consumer === undefined) return;
    consumer.connections--;
    // querier_forget_delay is not implemented: a querier is forgotten with its last connection.
    if (consumer.connections <= 0) this.consumers.delete(querierId);
    this.wake();
  }

  /** Loki's `getNextQueueForConsumer` + `dequeue`: the tenant after `cursor`, wrapping once. */
  private dequeueFrom(cursor: number): { dequeued: Dequeued<T>; cursor: number } | undefined {
    if (this.stopped || this.tenants.size === 0) return undefined;
    let index = cursor;
    const maxIterations = this.tenants.slotCount + 1;
    for (let i = 0; i < maxIterations; i++) {
      const queue = this.tenants.next(index);
      if (queue === undefined) {
        index = START_INDEX;
        continue;
      }
      index = queue.pos;
      const item = queue.dequeue();
      if (queue.length === 0) this.tenants.remove(queue.name);
      if (item === EMPTY) continue;
      this.total--;
      this.wake();
      return { dequeued: { tenant: queue.name, item }, cursor: index };
    }
    return undefined;
  }

  private waitFor(take: () => Dequeued<T> | undefined, signal?: AbortSignal): Promise<Dequeued<T>> {
    return new Promise<Dequeued<T>>((resolve, reject) => {
      const finish = (): void => {
        this.wakers.delete(attempt);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = (): void => {
        finish();
        reject(new LogsvcError('canceled', 'context canceled', { cause: signal?.reason }));
      };
      const attempt = (): void => {
        if (signal?.aborted === true) return onAbort();
        if (this.stopped) {
          finish();
          return reject(new LogsvcError('unavailable', QUEUE_STOPPED));
        }
        const dequeued = take();
        if (dequeued !== undefined) {
          finish();
          resolve(dequeued);
        }
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.wakers.add(attempt);
      attempt();
    });
  }

  /**
   * Lets every waiting dequeue and `stop` look again (Loki's `cond.Broadcast`), in a microtask so
   * that a waiter never runs inside another's dequeue.
   */
  private wake(): void {
    if (this.wakePending || this.wakers.size === 0) return;
    this.wakePending = true;
    queueMicrotask(() => {
      this.wakePending = false;
      for (const waker of [...this.wakers]) waker();
    });
  }
}
