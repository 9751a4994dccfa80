import { RULE_KIND } from '@logsvc/operator-api';
import { LABEL_INSTANCE, LABEL_NAME } from '@logsvc/operator-render';
import type { KubeClient, WatchEvent } from '../kube/client';
import { collectionPath, LOGSERVICE_API_VERSION } from '../kube/paths';
import type { OperatorMetrics } from '../observe/metrics';
import { WorkQueue } from './queue';
import type { Reconciler } from './reconciler';

export interface ControllerOptions {
  /** Watch one namespace; all when undefined. */
  readonly namespace?: string;
  /** Every LogService is reconciled at least this often. */
  readonly resyncMs: number;
  readonly workers: number;
  readonly log: (message: string) => void;
  readonly metrics?: OperatorMetrics;
}

/**
 * Watches LogServices and the objects they own, and feeds a keyed work queue that the
 * reconciler drains: informer → queue → reconcile(key), with a periodic resync, so a missed
 * event only delays convergence.
 */
export class Controller {
  private readonly queue = new WorkQueue();
  private readonly abort = new AbortController();
  private readonly running: Promise<unknown>[] = [];

  constructor(
    private readonly client: KubeClient,
    private readonly reconciler: Reconciler,
    private readonly options: ControllerOptions,
  ) {}

  start(): void {
    const ns = this.options.namespace;
    const ours = `?labelSelector=${encodeURIComponent(`${LABEL_NAME}=logsvc`)}`;
    const byOwnerLabel = (e: WatchEvent) => {
      const meta = e.object.metadata as { namespace?: string; labels?: Record<string, string> };
      const instance = meta?.labels?.[LABEL_INSTANCE];
      if (instance !== undefined && meta.namespace !== undefined)
        this.queue.add(`${meta.namespace}/${instance}`);
    };
    const byName = (e: WatchEvent) => {
      const meta = e.object.metadata as { namespace?: string; name?: string };
      if (meta?.namespace !== undefined && meta.name !== undefined)
        this.queue.add(`${meta.namespace}/${meta.name}`);
    };
    this.running.push(
      this.watchLoop(collectionPath(LOGSERVICE_API_VERSION, 'LogService', ns), byName),
      this.watchLoop(collectionPath('apps/v1', 'StatefulSet', ns) + ours, byOwnerLabel),
      this.watchLoop(collectionPath('apps/v1', 'Deployment', ns) + ours, byOwnerLabel),
      this.watchLoop(collectionPath('v1', 'Pod', ns) + ours, byOwnerLabel),
      // A LogServiceRule may be selected by any LogService (namespace selectors): all look.
      this.watchLoop(
        collectionPath(LOGSERVICE_API_VERSION, RULE_KIND, ns),
        () => void this.enqueueAll(),
      ),
      this.resyncLoop(),
    );
    for (let i = 0; i < this.options.workers; i++) this.running.push(this.worker());
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.queue.close();
    await Promise.allSettled(this.running);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const signal = this.abort.signal;
      if (signal.aborted) return resolve();
      // The listener goes with the timer: one per sleep would pile up over a long run.
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done);
    });
  }

  /** Watches until stopped; a watch that ends or fails is started again. */
  private async watchLoop(path: string, onEvent: (e: WatchEvent) => void): Promise<void> {
    while (!this.abort.signal.aborted) {
      try {
        await this.client.watch(
          path,
          (e) => {
            if (e.type !== 'ERROR' && e.type !== 'BOOKMARK') onEvent(e);
          },
          this.abort.signal,
        );
      } catch (err) {
        if (!this.abort.signal.aborted)
          this.options.log(`watch ${path}: ${(err as Error).message}`);
      }
      await this.sleep(1000);
    }
  }

  /** Queues every LogService. */
  private async enqueueAll(): Promise<void> {
    try {
      const list = await this.client.call<{
        items: { metadata: { namespace: string; name: string } }[];
      }>('GET', collectionPath(LOGSERVICE_API_VERSION, 'LogService', this.options.namespace));
      for (const item of list.items)
        this.queue.add(`${item.metadata.namespace}/${item.metadata.name}`);
    } catch (err) {
      this.options.log(`resync: ${(err as Error).message}`);
    }
  }

  private async resyncLoop(): Promise<void> {
    while (!this.abort.signal.aborted) {
      await this.enqueueAll();
      await this.sleep(this.options.resyncMs);
    }
  }

  private async worker(): Promise<void> {
    for (;;) {
      const key = await this.queue.next();
      if (key === undefined) return;
      const [namespace, name] = key.split('/');
      const started = performance.now();
      const took = () => (performance.now() - started) / 1000;
      try {
        const result = await this.reconciler.reconcile(namespace, name);
        if (result.requeueAfterMs !== undefined) this.queue.addAfter(key, result.requeueAfterMs);
        this.options.metrics?.reconciled(
          result.requeueAfterMs !== undefined ? 'requeue_after' : 'success',
          took(),
        );
      } catch (err) {
        this.options.log(`reconcile ${key}: ${(err as Error).message}`);
        this.queue.addAfter(key, 5000);
        this.options.metrics?.reconciled('error', took());
      } finally {
        this.queue.done(key);
      }
    }
  }
}
