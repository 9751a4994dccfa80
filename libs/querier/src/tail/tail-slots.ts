import { TailLimitError } from './tail-errors';

/**
 * This querier's open tails per tenant, for `max_concurrent_tail_requests`. Taken at once when
 * a tail arrives, so that tails opened together cannot all pass; the querier then also asks
 * the ingesters for their counts, which see the tails of every querier (Loki's only check).
 */
export class TailSlots {
  private readonly open = new Map<string, number>();

  /** Takes a slot or throws Loki's error; the returned function gives it back (once). */
  acquire(tenant: string, limit: number): () => void {
    const count = this.open.get(tenant) ?? 0;
    if (count >= limit) throw new TailLimitError(count + 1, limit);
    this.open.set(tenant, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(tenant) ?? 1) - 1;
      if (left > 0) this.open.set(tenant, left);
      else this.open.delete(tenant);
    };
  }

  count(tenant: string): number {
    return this.open.get(tenant) ?? 0;
  }
}
