import type { ServiceState } from '@logsvc/api';
import type { Logger } from 'pino';
import type { LifecycleService } from './lifecycle-service';

interface Entry {
  readonly service: LifecycleService;
  state: ServiceState;
  failure?: Error;
  abort?: AbortController;
  runningDone?: Promise<void>;
}

/** Raised by startAll() when a service fails to start. */
export class ServiceFailedError extends Error {
  constructor(
    readonly serviceName: string,
    override readonly cause: Error,
  ) {
    super(`service ${serviceName} failed: ${cause.message}`);
    this.name = 'ServiceFailedError';
  }
}

/**
 * Holds every service of this process with its state, starts them in dependency order and stops
 * them in reverse. `/services` and `/ready` read it.
 */
export class ServiceRegistry {
  private readonly entries = new Map<string, Entry>();
  private stoppingAll = false;
  private readonly failureListeners: Array<(err: ServiceFailedError) => void> = [];
  private readonly readinessChecks: Array<() => string | null> = [];
  private readonly changeListeners: Array<() => void> = [];

  /**
   * @param dependencies module name → names it needs running first (from the targets graph).
   * @param order names in the order they start when no dependency decides (the targets' start
   *   order); names it lacks follow, in the order they were registered. Without it, registration
   *   order.
   */
  constructor(
    private readonly dependencies: Readonly<Record<string, readonly string[]>>,
    private readonly logger: Logger,
    private readonly order: readonly string[] = [],
  ) {}

  register(service: LifecycleService): void {
    if (this.entries.has(service.serviceName)) {
      throw new Error(`service ${service.serviceName} is registered twice`);
    }
    this.entries.set(service.serviceName, { service, state: 'New' });
  }

  /** Name and state of every registered service, in start order. */
  states(): Array<{ name: string; state: ServiceState }> {
    return this.startOrder().map((e) => ({ name: e.service.serviceName, state: e.state }));
  }

  /** The state of one service; undefined when no service of that name is registered. */
  stateOf(name: string): ServiceState | undefined {
    return this.entries.get(name)?.state;
  }

  /** True once stopAll() has begun. */
  get isStopping(): boolean {
    return this.stoppingAll;
  }

  /**
   * A condition `/ready` also requires once every service is Running (an ingester must be
   * ACTIVE in its ring): the check returns null when met, else the reason `/ready` prints.
   */
  addReadinessCheck(check: () => string | null): void {
    this.readinessChecks.push(check);
  }

  /** The first unmet readiness condition, or null. */
  unmetReadiness(): string | null {
    for (const check of this.readinessChecks) {
      const reason = check();
      if (reason !== null) return reason;
    }
    return null;
  }

  /**
   * Called after any service changes state (the admin UI's live overview); returns a function
   * that removes the listener. Listeners must not throw.
   */
  onStateChange(listener: () => void): () => void {
    this.changeListeners.push(listener);
    return () => {
      const at = this.changeListeners.indexOf(listener);
      if (at >= 0) this.changeListeners.splice(at, 1);
    };
  }

  private setState(entry: Entry, state: ServiceState): void {
    entry.state = state;
    for (const listener of [...this.changeListeners]) listener();
  }

  /** Called when a service fails after startup (its running() rejected). */
  onFailure(listener: (err: ServiceFailedError) => void): void {
    this.failureListeners.push(listener);
  }

  /** Starts every New service, dependencies first. Throws ServiceFailedError on the first failure. */
  async startAll(): Promise<void> {
    for (const entry of this.startOrder()) {
      if (this.stoppingAll) return;
      if (entry.state !== 'New') continue;
      await this.start(entry);
    }
  }

  /** Stops every started service, dependents first; failures are logged, never thrown. */
  async stopAll(): Promise<void> {
    this.stoppingAll = true;
    for (const entry of this.startOrder().reverse()) {
      if (entry.state === 'Starting' || entry.state === 'Running') await this.stop(entry);
      else if (entry.state === 'New') this.setState(entry, 'Terminated');
    }
  }

  /**
   * Stops one Running service on its own request (`/ingester/shutdown`), leaving the others
   * running. It is Stopping as soon as this is called; resolves once it is Terminated or Failed.
   */
  async stopService(name: string): Promise<void> {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`service ${name} is not registered`);
    if (entry.state === 'Running') await this.stop(entry);
  }

  private async start(entry: Entry): Promise<void> {
    const name = entry.service.serviceName;
    this.setState(entry, 'Starting');
    this.logger.debug({ service: name }, 'starting service');
    try {
      await entry.service.starting?.();
    } catch (err) {
      const error = this.fail(entry, err);
      throw new ServiceFailedError(name, error);
    }
    if (entry.state !== 'Starting') return; // stopped while starting
    this.setState(entry, 'Running');
    this.logger.debug({ service: name }, 'service running');
    const run = entry.service.running;
    if (run) {
      const abort = new AbortController();
      entry.abort = abort;
      entry.runningDone = run.call(entry.service, abort.signal).then(
        () => {
          if (!abort.signal.aborted && entry.state === 'Running') void this.stop(entry);
        },
        (err: unknown) => {
          const error = this.fail(entry, err);
          if (!abort.signal.aborted) {
            const failure = new ServiceFailedError(name, error);
            for (const listener of this.failureListeners) listener(failure);
          }
        },
      );
    }
  }

  private async stop(entry: Entry): Promise<void> {
    const name = entry.service.serviceName;
    this.setState(entry, 'Stopping');
    this.logger.debug({ service: name }, 'stopping service');
    entry.abort?.abort();
    await entry.runningDone;
    if (entry.state !== 'Stopping') return; // running() failed
    try {
      await entry.service.stopping?.();
      this.setState(entry, 'Terminated');
    } catch (err) {
      this.fail(entry, err);
    }
  }

  private fail(entry: Entry, err: unknown): Error {
    const error = err instanceof Error ? err : new Error(String(err));
    this.setState(entry, 'Failed');
    entry.failure = error;
    this.logger.error({ service: entry.service.serviceName, err: error }, 'service failed');
    return error;
  }

  /** Registered entries sorted so that each comes after the registered services it depends on. */
  private startOrder(): Entry[] {
    const out: Entry[] = [];
    const visited = new Set<string>();
    const visit = (name: string, trail: string[]) => {
      const entry = this.entries.get(name);
      if (!entry || visited.has(name)) return;
      if (trail.includes(name))
        throw new Error(`dependency cycle: ${[...trail, name].join(' -> ')}`);
      for (const dep of this.dependencies[name] ?? []) visit(dep, [...trail, name]);
      visited.add(name);
      out.push(entry);
    };
    const rank = (name: string) => {
      const i = this.order.indexOf(name);
      return i < 0 ? this.order.length : i;
    };
    // Stable: names of the same rank keep their registration order.
    const names = [...this.entries.keys()].sort((a, b) => rank(a) - rank(b));
    for (const name of names) visit(name, []);
    return out;
  }
}
