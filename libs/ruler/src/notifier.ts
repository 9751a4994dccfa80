// Prometheus' notifier as Loki's ruler uses it: a bounded queue per tenant (oldest alerts
// dropped when full), batches of 64 POSTed to each Alertmanager's v2 API.
import type { Alert } from './alerting-rule';
import type { RulerMetrics } from './metrics';

export const MAX_BATCH_SIZE = 64;

export interface NotifierOptions {
  /** Alertmanager base URLs (`ruler.alertmanager_url`, comma-separated). */
  readonly alertmanagers: readonly string[];
  /** `ruler.notification_queue_capacity`. */
  readonly queueCapacity: number;
  /** `ruler.notification_timeout`. */
  readonly timeoutMs: number;
  /** `ruler.external.url` (Loki prefixes each alert's generator URL with it). */
  readonly externalURL: string;
  readonly datasourceUID: string;
  readonly metrics: RulerMetrics;
  readonly fetch?: typeof fetch;
  readonly onError?: (message: string) => void;
}

/** Alertmanager's PostableAlert. */
export interface PostableAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  generatorURL: string;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Loki's grafanaLinkForExpression: an Explore link for the rule's query. */
export function generatorURL(externalURL: string, expr: string, datasourceUID: string): string {
  const q =
    `{"expr":${JSON.stringify(expr)},"queryType":"range"` +
    (datasourceUID ? `,"datasource":{"type":"loki","uid":${JSON.stringify(datasourceUID)}}` : '') +
    '}';
  return `${externalURL}/explore?${new URLSearchParams({ left: `{"queries":[${q}]}` }).toString()}`;
}

/** Loki's SendAlerts: a resolved alert ends when it resolved, an active one when it expires. */
export function toPostable(a: Alert, generator: string): PostableAlert {
  return {
    labels: a.labels,
    annotations: a.annotations,
    startsAt: iso(a.firedAtMs),
    endsAt: iso(a.resolvedAtMs !== 0 ? a.resolvedAtMs : a.validUntilMs),
    generatorURL: generator,
  };
}

function v2Url(base: string): string {
  return base.replace(/\/+$/, '') + '/api/v2/alerts';
}

export class AlertmanagerNotifier {
  private readonly queues = new Map<string, PostableAlert[]>();
  private sending: Promise<void> | null = null;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly options: NotifierOptions) {
    this.fetchFn = options.fetch ?? fetch;
  }

  get enabled(): boolean {
    return this.options.alertmanagers.length > 0;
  }

  /** Queues a rule's alerts for the tenant and starts sending. */
  send(tenant: string, expr: string, alerts: readonly Alert[]): void {
    if (!this.enabled || alerts.length === 0) return;
    const link = generatorURL(this.options.externalURL, expr, this.options.datasourceUID);
    const queue = this.queues.get(tenant) ?? [];
    queue.push(...alerts.map((a) => toPostable(a, link)));
    const over = queue.length - this.options.queueCapacity;
    if (over > 0) {
      queue.splice(0, over);
      this.options.metrics.notificationsDropped(tenant, over);
      this.options.onError?.(`Alert notification queue full, dropping ${over} alerts`);
    }
    this.queues.set(tenant, queue);
    this.options.metrics.notificationQueueLength(tenant, queue.length);
    this.sending ??= this.drain().finally(() => {
      this.sending = null;
    });
  }

  /** Resolves once every queued alert was sent (or failed). */
  async flush(): Promise<void> {
    while (this.sending) await this.sending;
  }

  private async drain(): Promise<void> {
    for (;;) {
      const next = [...this.queues].find(([, q]) => q.length > 0);
      if (!next) return;
      const [tenant, queue] = next;
      const batch = queue.splice(0, MAX_BATCH_SIZE);
      this.options.metrics.notificationQueueLength(tenant, queue.length);
      await Promise.all(this.options.alertmanagers.map((am) => this.post(tenant, am, batch)));
    }
  }

  private async post(tenant: string, am: string, batch: PostableAlert[]): Promise<void> {
    const url = v2Url(am);
    try {
      const res = await this.fetchFn(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'User-Agent': 'logsvc-ruler' },
        body: JSON.stringify(batch),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      await res.arrayBuffer();
      if (Math.floor(res.status / 100) !== 2) {
        throw new Error(`bad response status ${res.status} ${res.statusText}`);
      }
      this.options.metrics.notificationsSent(tenant, url, batch.length);
    } catch (err) {
      this.options.metrics.notificationsFailed(tenant, url, batch.length);
      this.options.onError?.(
        `Error sending alerts to ${url}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
}
