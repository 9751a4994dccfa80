/** How long a stream that evicts too many patterns stops training (Loki: 10 minutes). */
const BLOCK_MS = 10 * 60_000;

/**
 * Loki's drain limiter: once more than `maxRatio` of the patterns a stream created were
 * evicted (it makes new patterns faster than it keeps them), the stream stops training for
 * 10 minutes, so a stream of random lines cannot churn its clusters forever.
 */
export class EvictionLimiter {
  private added = 0;
  private evicted = 0;
  private blockedUntil = 0;

  constructor(
    private readonly maxRatio: number,
    private readonly now: () => number = Date.now,
  ) {}

  allow(): boolean {
    if (this.blockedUntil !== 0) {
      if (this.now() < this.blockedUntil) return false;
      this.added = 0;
      this.evicted = 0;
      this.blockedUntil = 0;
    }
    if (this.added === 0) {
      this.added++;
      return true;
    }
    if (this.evicted / this.added > this.maxRatio) {
      this.blockedUntil = this.now() + BLOCK_MS;
      return false;
    }
    this.added++;
    return true;
  }

  evict(): void {
    this.evicted++;
  }
}
