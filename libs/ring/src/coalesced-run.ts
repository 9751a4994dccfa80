// Runs a task again and again while it is asked for, never two at once: a rule posted while
// the ruler reloads its groups is picked up by one more reload, not by the next poll, and a
// state change during a write of the instance report is written by one more write.

export class CoalescedRun {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(private readonly task: () => Promise<void>) {}

  /**
   * Starts the task, or, when it is running, asks for one more pass after it. Resolves once a
   * pass that began after this call has finished. The task's failures are its own to report:
   * it must not reject.
   */
  request(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.loop();
    return this.running;
  }

  /** The pass under way, if any (resolves at once when idle). */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private async loop(): Promise<void> {
    try {
      do {
        this.again = false;
        await this.task();
      } while (this.again);
    } finally {
      // Cleared in the same step as the last `again` check. A `.finally()` on the promise
      // would run a microtask later, and a request made in between would only set `again` on
      // a loop that had already ended.
      this.running = null;
    }
  }
}
