import type { LogEntry } from '@logsvc/api';

/**
 * Lets each entry through once when several replicas send it: an entry is the same as one seen
 * when its stream, timestamp and line are. Remembers what it saw for one to two `windowMs`
 * (two generations, the older dropped at each turn), so memory stays bounded by the entry rate;
 * a replica slower than that gets its copy through again.
 */
export class ReplicaDedupe {
  private current = new Map<string, Set<string>>();
  private previous = new Map<string, Set<string>>();
  private turnedAt: number;

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.turnedAt = now();
  }

  /** The entries of a stream (by label text) not seen before; remembers them. */
  firstCopies(labelsText: string, entries: readonly LogEntry[]): LogEntry[] {
    this.turn();
    let seen = this.current.get(labelsText);
    if (seen === undefined) this.current.set(labelsText, (seen = new Set()));
    const older = this.previous.get(labelsText);
    const out: LogEntry[] = [];
    for (const e of entries) {
      const key = entryKey(e);
      if (seen.has(key) || older?.has(key) === true) continue;
      seen.add(key);
      out.push(e);
    }
    return out;
  }

  private turn(): void {
    const now = this.now();
    if (now - this.turnedAt < this.windowMs) return;
    this.previous = now - this.turnedAt < 2 * this.windowMs ? this.current : new Map();
    this.current = new Map();
    this.turnedAt = now;
  }
}

/** Timestamp, line length and a 32-bit FNV-1a of the line: collisions need all three. */
function entryKey(e: LogEntry): string {
  const line = e.line;
  let h = 0x811c9dc5;
  for (let i = 0; i < line.length; i++) {
    h ^= line[i];
    h = Math.imul(h, 0x01000193);
  }
  return `${e.timestampNs}:${line.length}:${h >>> 0}`;
}
