/**
 * A token bucket with the semantics of Go's `rate.Limiter.AllowN`, which Loki's limiters use:
 * it starts full, refills at `rate` tokens per second up to `burst`, and a request for more
 * than is available takes nothing and fails (so one over-sized request never fits).
 */
export class TokenBucket {
  private tokens: number;
  private lastMs: number;

  constructor(
    private rate: number,
    private burst: number,
    nowMs: number,
  ) {
    this.tokens = burst;
    this.lastMs = nowMs;
  }

  /** Reads the bucket's state, to bring it into cache ahead of use. */
  warm(): number {
    return this.tokens;
  }

  /** Changes rate and burst, keeping the tokens already earned (capped at the new burst). */
  setLimits(rate: number, burst: number, nowMs: number): void {
    if (rate === this.rate && burst === this.burst) return;
    this.advance(nowMs);
    this.rate = rate;
    this.burst = burst;
    this.tokens = Math.min(this.tokens, burst);
  }

  allowN(nowMs: number, n: number): boolean {
    if (this.rate === Infinity) return true;
    this.advance(nowMs);
    if (n > this.tokens) return false;
    this.tokens -= n;
    return true;
  }

  /** Whether the bucket is full at `nowMs` (an idle bucket can be dropped and recreated). */
  isFull(nowMs: number): boolean {
    this.advance(nowMs);
    return this.tokens >= this.burst;
  }

  private advance(nowMs: number): void {
    if (nowMs > this.lastMs) {
      this.tokens = Math.min(this.burst, this.tokens + ((nowMs - this.lastMs) / 1000) * this.rate);
      this.lastMs = nowMs;
    }
  }
}
