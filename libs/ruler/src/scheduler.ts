// Runs a group every interval at a fixed phase (Prometheus' EvalTimestamp: an offset within the
// interval from the group's hash, so groups spread over the interval), counting the
// iterations missed when an evaluation overran its slot.
import type { Clock } from './clock';
import type { Group } from './group';
import type { RulerMetrics } from './metrics';

/** The latest evaluation slot at or before `nowMs` for a group with this phase offset. */
export function evalTimestamp(nowMs: number, intervalMs: number, offsetMs: number): number {
  const adj = nowMs - offsetMs;
  return adj - (((adj % intervalMs) + intervalMs) % intervalMs) + offsetMs;
}

export class GroupScheduler {
  private timer: unknown;
  private stopped = false;
  private running: Promise<void> = Promise.resolve();
  private nextMs = 0;

  constructor(
    readonly group: Group,
    private readonly clock: Clock,
    private readonly offsetMs: number,
    private readonly metrics: RulerMetrics,
  ) {}

  start(): void {
    const interval = this.group.intervalMs;
    this.nextMs = evalTimestamp(this.clock.now(), interval, this.offsetMs) + interval;
    this.arm();
  }

  /** Stops scheduling; resolves once an evaluation under way has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clock.clearTimeout(this.timer);
    await this.running;
  }

  private arm(): void {
    if (this.stopped) return;
    const delay = Math.max(0, this.nextMs - this.clock.now());
    this.timer = this.clock.setTimeout(() => {
      this.running = this.tick();
    }, delay);
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    const interval = this.group.intervalMs;
    const missed = Math.floor((this.clock.now() - this.nextMs) / interval);
    if (missed > 0) {
      this.metrics.iterationsMissed(this.group.tenant, this.group.key, missed);
      this.nextMs += missed * interval;
    }
    try {
      await this.group.evaluate(this.nextMs);
    } finally {
      this.nextMs += interval;
      this.arm();
    }
  }
}
