import type { LogEntry } from '@logsvc/api';

/**
 * Collects one stream's entries in a reused array and hands them out as an array of their
 * exact length. An array grown by `push` from empty takes 16 slots at once, which a push of a
 * thousand streams of two entries would allocate a thousand times. Synchronous use only: one
 * stream is collected and taken before the next is started.
 */
export class EntryCollector {
  private readonly items: LogEntry[] = [];
  private n = 0;

  get length(): number {
    return this.n;
  }

  add(entry: LogEntry): void {
    this.items[this.n++] = entry;
  }

  /** The entries added since the last `take`, in order; the collector starts empty again. */
  take(): LogEntry[] {
    const items = this.items;
    const n = this.n;
    // Literals for the common few (builtins cost more than the copy at these lengths).
    const out =
      n === 1
        ? [items[0]]
        : n === 2
          ? [items[0], items[1]]
          : n === 3
            ? [items[0], items[1], items[2]]
            : items.slice(0, n);
    // Not kept past their stream: the entries' lines are views of the request body.
    for (let i = 0; i < n; i++) items[i] = NO_ENTRY;
    this.n = 0;
    return out;
  }
}

const NO_ENTRY: LogEntry = Object.freeze({
  timestampNs: 0n,
  line: Buffer.alloc(0),
  structuredMetadata: Object.freeze([]),
});
