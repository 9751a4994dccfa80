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
    const out = this.items.slice(0, this.n);
    // Not kept past their stream: the entries' lines are views of the request body.
    this.items.fill(NO_ENTRY, 0, this.n);
    this.n = 0;
    return out;
  }
}

const NO_ENTRY: LogEntry = Object.freeze({
  timestampNs: 0n,
  line: Buffer.alloc(0),
  structuredMetadata: Object.freeze([]),
});
