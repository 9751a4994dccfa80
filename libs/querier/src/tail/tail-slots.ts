import { TailLimitError } from './tail-errors';

/**
 * Open tails per tenant, for `max_concurrent_tail_requests`. Loki counts the tailers of the
 * tenant on each ingester and takes the largest count; here each querier counts its own, which
 * is the same with one querier.
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
