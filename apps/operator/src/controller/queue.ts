/**
 * A keyed, de-duplicated work queue (as client-go's): a key added while queued is queued once;
 * a key added while being processed is processed again afterwards; one worker per key at a
 * time. `addAfter` schedules a later add (requeue while waiting on the cluster).
 */
export class WorkQueue {
  private readonly queued = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly waiters: (() => void)[] = [];
  private closed = false;

  add(key: string): void {
    if (this.closed) return;
    if (this.processing.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.waiters.shift()?.();
  }

  addAfter(key: string, ms: number): void {
    if (this.closed) return;
    const existing = this.timers.get(key);
    if (existing !== undefined) clearTimeout(existing);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.add(key);
      }, ms),
    );
  }

  /** The next key (undefined once closed); call `done(key)` when processed. */
  async next(): Promise<string | undefined> {
    while (!this.closed) {
      const key = this.queued.values().next().value;
      if (key !== undefined) {
        this.queued.delete(key);
        this.processing.add(key);
        return key;
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    return undefined;
  }

  done(key: string): void {
    this.processing.delete(key);
    if (this.dirty.delete(key)) this.add(key);
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const w of this.waiters.splice(0)) w();
  }
}
