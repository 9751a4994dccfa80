import type { Clock } from '../clock';

/** A clock whose time moves only when a test advances it; due timers run in order. */
export class FakeClock implements Clock {
  private timers: Array<{ at: number; fn: () => void; id: number }> = [];
  private nextId = 1;

  constructor(private t: number) {}

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.t + ms, fn, id });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((x) => x.id !== handle);
  }

  /** Moves time forward, running each timer due on the way (and letting its promises settle). */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.t = Math.max(this.t, next.at);
      next.fn();
      for (let i = 0; i < 20; i++) await Promise.resolve();
    }
    this.t = end;
  }
}
