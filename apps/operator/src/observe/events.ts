import { randomBytes } from 'node:crypto';
import type { KubeClient } from '../kube/client';

/** The object an Event is about. */
export interface EventSubject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid?: string;
}

export type EventType = 'Normal' | 'Warning';

/** Records decisions; never throws (an Event that cannot be written is only logged). */
export interface EventSink {
  record(subject: EventSubject, type: EventType, reason: string, message: string): void;
}

interface Seen {
  readonly name: string;
  count: number;
  last: number;
}

const AGGREGATE_MS = 10 * 60_000;

/**
 * core/v1 Events through the API, as client-go's recorder: the same event about the same
 * object within 10 minutes bumps the count of the one already written instead of adding one.
 * Writes are queued and sent one at a time, off the reconcile path.
 */
export class EventRecorder implements EventSink {
  private readonly seen = new Map<string, Seen>();
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: KubeClient,
    private readonly options: {
      readonly component: string;
      readonly instance: string;
      readonly now?: () => Date;
      readonly log?: (message: string) => void;
    },
  ) {}

  record(subject: EventSubject, type: EventType, reason: string, message: string): void {
    const now = this.options.now?.() ?? new Date();
    const key = [subject.namespace, subject.kind, subject.name, subject.uid, type, reason, message]
      .map(String)
      .join('\u0000');
    this.prune(now.getTime());
    const seen = this.seen.get(key);
    const at = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
    const base = `/api/v1/namespaces/${subject.namespace}/events`;
    if (seen !== undefined) {
      seen.count++;
      seen.last = now.getTime();
      const count = seen.count;
      this.enqueue(() =>
        this.client.call(
          'PATCH',
          `${base}/${seen.name}`,
          { count, lastTimestamp: at },
          'application/strategic-merge-patch+json',
        ),
      );
      return;
    }
    const name = `${subject.name}.${Date.now().toString(16)}${randomBytes(3).toString('hex')}`;
    this.seen.set(key, { name, count: 1, last: now.getTime() });
    this.enqueue(() =>
      this.client.call('POST', base, {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace: subject.namespace },
        involvedObject: {
          apiVersion: subject.apiVersion,
          kind: subject.kind,
          namespace: subject.namespace,
          name: subject.name,
          ...(subject.uid !== undefined ? { uid: subject.uid } : {}),
        },
        type,
        reason,
        message: message.slice(0, 1024),
        count: 1,
        firstTimestamp: at,
        lastTimestamp: at,
        source: { component: this.options.component },
        reportingComponent: this.options.component,
        reportingInstance: this.options.instance,
      }),
    );
  }

  /** Resolves once every Event recorded so far was sent (or failed). */
  flush(): Promise<void> {
    return this.chain;
  }

  private enqueue(send: () => Promise<unknown>): void {
    this.chain = this.chain.then(() =>
      send().then(
        () => undefined,
        (err: unknown) => this.options.log?.(`event: ${(err as Error).message}`),
      ),
    );
  }

  private prune(now: number): void {
    for (const [key, seen] of this.seen) if (now - seen.last > AGGREGATE_MS) this.seen.delete(key);
  }
}

/** An EventSink that drops everything (tests, or no Events wanted). */
export const NO_EVENTS: EventSink = { record: () => {} };
