/**
 * How long a query runs on the event loop before it lets other work run: pushes, `/ready`,
 * other queries and its own timeout all share the one thread. A slice is measured in time,
 * not in lines, because one line can cost a nanosecond (`|= "x"`) or many milliseconds (a
 * heavy template), and only time tells when others have waited long enough. 1 ms, because a
 * push needs several turns of the event loop (body, WAL write, fsync, answer) and each turn
 * waits for one slice of every running query: with 4 heavy queries, 5 ms slices gave pushes
 * a p99 of 330 ms, 1 ms slices 180 ms, with the same query throughput
 * (`npm run bench:push-latency`).
 */
export const QUERY_SLICE_MS = 1;
/** Entries between two clock reads (a read costs tens of nanoseconds). */
const ENTRIES_PER_CLOCK_READ = 16;

export class TimeSlice {
  private endsAt = performance.now() + QUERY_SLICE_MS;
  private sinceRead = 0;

  /** Counts one entry; true when the slice is used up and the caller should `pause`. */
  spent(): boolean {
    if (++this.sinceRead < ENTRIES_PER_CLOCK_READ) return false;
    this.sinceRead = 0;
    return performance.now() >= this.endsAt;
  }

  /** Reads the clock now: for loops whose every turn is costly (a step over many series). */
  expired(): boolean {
    return performance.now() >= this.endsAt;
  }

  /** Lets the event loop run what waits (I/O, timers, other queries), then starts a new slice. */
  async pause(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.endsAt = performance.now() + QUERY_SLICE_MS;
    this.sinceRead = 0;
  }
}
