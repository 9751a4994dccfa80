import { KubeError, type KubeClient } from './client';

export interface LeaderElectionOptions {
  readonly namespace: string;
  /** The Lease's name. */
  readonly name: string;
  /** This replica's name in `holderIdentity` (the pod name). */
  readonly identity: string;
  /** As controller-runtime: 15s, 10s, 2s. */
  readonly leaseDurationMs?: number;
  readonly renewDeadlineMs?: number;
  readonly retryPeriodMs?: number;
  readonly log?: (message: string) => void;
}

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

interface Lease {
  metadata: { name: string; namespace?: string; resourceVersion?: string };
  spec?: LeaseSpec;
}

/** metav1.MicroTime: RFC 3339 with exactly six fractional digits. */
const microTime = (d: Date) => d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/**
 * Leader election on a coordination.k8s.io/v1 Lease, as client-go's leaderelection: a
 * candidate takes the Lease when its holder has not renewed it for leaseDuration (measured on
 * this replica's clock, from when it last saw the Lease change, so clocks need not agree);
 * the leader renews it every retryPeriod and gives up leading when it could not renew for
 * renewDeadline. Writes carry the resourceVersion read, so two candidates never both win.
 */
export class LeaderElector {
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private observed?: { record: string; at: number };
  private leading = false;

  constructor(
    private readonly client: KubeClient,
    private readonly options: LeaderElectionOptions,
  ) {
    this.leaseDurationMs = options.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = options.retryPeriodMs ?? 2_000;
  }

  get isLeader(): boolean {
    return this.leading;
  }

  private get path(): string {
    const { namespace, name } = this.options;
    return `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases/${encodeURIComponent(name)}`;
  }

  /**
   * Campaigns until this replica leads, calls `onStartedLeading`, renews until the signal
   * aborts or a renewal misses the deadline, then calls `onStoppedLeading` and resolves.
   * With `releaseOnStop`, an aborted leader clears the Lease so the next one takes over at once.
   */
  async run(
    signal: AbortSignal,
    onStartedLeading: () => void,
    onStoppedLeading: () => void,
    releaseOnStop: boolean | (() => boolean) = true,
  ): Promise<void> {
    while (!signal.aborted && !(await this.tryAcquireOrRenew()))
      await sleep(this.retryPeriodMs * (1 + Math.random() * 0.2), signal);
    if (signal.aborted) return;
    this.leading = true;
    this.options.log?.(
      `leader election: ${this.options.identity} leads (Lease ${this.options.name})`,
    );
    onStartedLeading();
    let lastRenew = Date.now();
    while (!signal.aborted) {
      await sleep(this.retryPeriodMs, signal);
      if (signal.aborted) break;
      if (await this.tryAcquireOrRenew()) lastRenew = Date.now();
      else if (Date.now() - lastRenew >= this.renewDeadlineMs) {
        this.options.log?.('leader election lost: the Lease was not renewed in time');
        break;
      }
    }
    this.leading = false;
    const release = typeof releaseOnStop === 'function' ? releaseOnStop() : releaseOnStop;
    if (signal.aborted && release) await this.release();
    onStoppedLeading();
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = new Date();
    const me = this.options.identity;
    let lease: Lease | undefined;
    try {
      lease = await this.client.get<Lease>(this.path);
    } catch (err) {
      this.options.log?.(`leader election: ${(err as Error).message}`);
      return false;
    }
    const spec: LeaseSpec = {
      holderIdentity: me,
      leaseDurationSeconds: Math.ceil(this.leaseDurationMs / 1000),
      acquireTime: microTime(now),
      renewTime: microTime(now),
      leaseTransitions: 0,
    };
    try {
      if (lease === undefined) {
        await this.client.call(
          'POST',
          `/apis/coordination.k8s.io/v1/namespaces/${this.options.namespace}/leases`,
          {
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            metadata: { name: this.options.name, namespace: this.options.namespace },
            spec,
          },
        );
        this.observe(spec);
        return true;
      }
      const held = lease.spec ?? {};
      this.observe(held);
      const holder = held.holderIdentity ?? '';
      if (holder !== '' && holder !== me) {
        const durationMs = (held.leaseDurationSeconds ?? 0) * 1000 || this.leaseDurationMs;
        if (Date.now() - this.observed!.at < durationMs) return false;
      }
      const next: LeaseSpec =
        holder === me
          ? { ...held, renewTime: spec.renewTime, leaseDurationSeconds: spec.leaseDurationSeconds }
          : { ...spec, leaseTransitions: (held.leaseTransitions ?? 0) + (holder === '' ? 0 : 1) };
      await this.client.call('PUT', this.path, {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { ...lease.metadata },
        spec: next,
      });
      this.observe(next);
      return true;
    } catch (err) {
      if (!(err instanceof KubeError && err.status === 409))
        this.options.log?.(`leader election: ${(err as Error).message}`);
      return false;
    }
  }

  /** Remembers when the Lease's record was last seen to change (on this replica's clock). */
  private observe(spec: LeaseSpec): void {
    const record = JSON.stringify([spec.holderIdentity, spec.renewTime, spec.acquireTime]);
    if (this.observed?.record !== record) this.observed = { record, at: Date.now() };
  }

  /** Clears the holder so that another replica need not wait out the lease. */
  private async release(): Promise<void> {
    try {
      const lease = await this.client.get<Lease>(this.path);
      if (lease?.spec?.holderIdentity !== this.options.identity) return;
      await this.client.call('PUT', this.path, {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { ...lease.metadata },
        spec: { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1 },
      });
    } catch (err) {
      this.options.log?.(`leader election: releasing the Lease: ${(err as Error).message}`);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}
