import { type Labels, type LogEntry, type Matcher, matchesLabels } from '@logsvc/api';
import type { AppendListener } from './ingester';

/**
 * Called with the entries a push stored in one stream that a tail's matchers select, once they
 * are durable. Synchronous, inside the push's completion: lines may be views into a buffer that
 * is reused after the call, so copy (or encode) what you keep.
 */
export type TailListener = (labels: Labels, entries: readonly LogEntry[]) => void;

/** A live tail on ingesters; `close` stops it and frees what it holds (idempotent). */
export interface TailSubscription {
  close(): void;
}

interface Subscriber {
  readonly matchers: readonly Matcher[];
  readonly listener: TailListener;
  /** Whether the matchers select a stream, by its labels object (stable per stream). */
  readonly selects: WeakMap<Labels, boolean>;
}

/**
 * The tails of one process's ingester: one append listener on the ingester, fanned out to the
 * subscribers of the pushing tenant whose matchers select the stream. The hub outlives ingester
 * restarts (`attach` moves its listener), so a tail keeps working across them.
 */
export class TailHub {
  private readonly byTenant = new Map<string, Set<Subscriber>>();

  /** Give this to `Ingester.onAppend`. */
  readonly onAppend: AppendListener = (tenant, labels, entries) => {
    const subscribers = this.byTenant.get(tenant);
    if (subscribers === undefined || entries.length === 0) return;
    for (const s of subscribers) {
      let selected = s.selects.get(labels);
      if (selected === undefined) {
        selected = matchesLabels(s.matchers, labels);
        s.selects.set(labels, selected);
      }
      if (selected) s.listener(labels, entries);
    }
  };

  /** Whether a tail of this tenant is open (give this to `Ingester.onAppend` too). */
  readonly listensTo = (tenant: string): boolean => this.byTenant.has(tenant);

  subscribe(
    tenant: string,
    matchers: readonly Matcher[],
    listener: TailListener,
  ): TailSubscription {
    const subscriber: Subscriber = { matchers, listener, selects: new WeakMap() };
    let set = this.byTenant.get(tenant);
    if (set === undefined) this.byTenant.set(tenant, (set = new Set()));
    set.add(subscriber);
    return {
      close: () => {
        const current = this.byTenant.get(tenant);
        if (current === undefined || !current.delete(subscriber)) return;
        if (current.size === 0) this.byTenant.delete(tenant);
      },
    };
  }

  /** Open subscriptions of a tenant (all tenants when none is given). */
  count(tenant?: string): number {
    if (tenant !== undefined) return this.byTenant.get(tenant)?.size ?? 0;
    let n = 0;
    for (const set of this.byTenant.values()) n += set.size;
    return n;
  }
}
