import { type Labels, type Matcher, labelsToString } from '@logsvc/api';
import type { TailListener, TailSubscription } from '@logsvc/ingester';
import { LogsvcError } from '@logsvc/errors';
import type { InstanceDesc, ReplicationRing } from '@logsvc/ring';
import type { IngesterClientFor, ReplicaLogger } from './push-replication';
import { messageOf } from './push-replication';
import { ReplicaDedupe } from './replica-dedupe';

/** How often ingesters not tailed yet (new, or whose stream broke) are subscribed to (Loki's). */
export const TAIL_RECONNECT_MS = 5_000;
/** How long replicas' copies of an entry are recognised as copies. */
export const TAIL_DEDUPE_WINDOW_MS = 10_000;

export interface RingTailOptions {
  readonly ring: () => ReplicationRing;
  readonly clientFor: IngesterClientFor;
  readonly logger: ReplicaLogger;
  readonly reconnectMs?: number;
  readonly dedupeWindowMs?: number;
}

/**
 * A tail over every healthy ingester of the ring (Loki's querier tails all of them): each
 * replica sends its copy of an entry, and the first one goes on. Ingesters that join, or whose
 * stream broke, are subscribed to at the next check, every 5 s as in Loki.
 */
export class RingTail implements TailSubscription {
  private readonly connected = new Map<string, TailSubscription>();
  private readonly connecting = new Set<string>();
  private readonly dedupe: ReplicaDedupe;
  private readonly texts = new WeakMap<Labels, string>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly tenant: string,
    private readonly matchers: readonly Matcher[],
    private readonly onEntries: TailListener,
    private readonly opts: RingTailOptions,
  ) {
    this.dedupe = new ReplicaDedupe(opts.dedupeWindowMs ?? TAIL_DEDUPE_WINDOW_MS);
  }

  /**
   * Subscribes to the read set; fails as a read does when more than its error budget of
   * ingesters cannot be reached.
   */
  async start(): Promise<void> {
    let instances: readonly InstanceDesc[];
    let maxErrors: number;
    try {
      ({ instances, maxErrors } = this.opts.ring().readSet());
    } catch (err) {
      throw new LogsvcError('unavailable', messageOf(err), { cause: err });
    }
    const results = await Promise.allSettled(instances.map((i) => this.connect(i)));
    const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    if (
      failures.length > maxErrors ||
      (instances.length > 0 && failures.length === instances.length)
    ) {
      this.close();
      const first: unknown = failures[0];
      if (first instanceof LogsvcError && first.kind !== 'internal') throw first;
      throw new LogsvcError('unavailable', `failed to tail ingesters: ${messageOf(first)}`, {
        cause: first,
      });
    }
    this.timer = setInterval(() => this.reconnect(), this.opts.reconnectMs ?? TAIL_RECONNECT_MS);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    for (const sub of this.connected.values()) sub.close();
    this.connected.clear();
  }

  /** Ingesters tailed now (for tests). */
  get ingesters(): string[] {
    return [...this.connected.keys()];
  }

  private readonly onReplicaEntries: TailListener = (labels, entries) => {
    if (this.closed) return;
    let text = this.texts.get(labels);
    if (text === undefined) this.texts.set(labels, (text = labelsToString(labels)));
    const first = this.dedupe.firstCopies(text, entries);
    if (first.length > 0) this.onEntries(labels, first);
  };

  private async connect(instance: InstanceDesc): Promise<void> {
    const { addr } = instance;
    if (this.connected.has(addr) || this.connecting.has(addr)) return;
    this.connecting.add(addr);
    try {
      const sub = await this.opts
        .clientFor(instance)
        .tail(this.tenant, this.matchers, this.onReplicaEntries, (err) => {
          if (this.connected.get(addr) !== sub) return;
          this.connected.delete(addr);
          this.opts.logger.warn(
            { tenant: this.tenant, ingester: instance.id, addr, err: messageOf(err) },
            'tail stream from ingester ended',
          );
        });
      if (this.closed) sub.close();
      else this.connected.set(addr, sub);
    } catch (err) {
      this.opts.logger.warn(
        { tenant: this.tenant, ingester: instance.id, addr, err: messageOf(err) },
        'tail on ingester failed',
      );
      throw err;
    } finally {
      this.connecting.delete(addr);
    }
  }

  /** Subscribes to ACTIVE ingesters of the read set not tailed yet (Loki skips the others). */
  private reconnect(): void {
    if (this.closed) return;
    let instances: readonly InstanceDesc[];
    try {
      instances = this.opts.ring().readSet().instances;
    } catch {
      return;
    }
    for (const instance of instances) {
      if (instance.state !== 'ACTIVE') continue;
      this.connect(instance).catch(() => {});
    }
  }
}
