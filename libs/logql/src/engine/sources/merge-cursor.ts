/**
 * One stream's entries from several cursors (ingesters and store, or replicas) merged into a
 * single cursor in direction order. An entry equal in timestamp and line to one already
 * returned is skipped and counted as a duplicate. Cursors are few (one per source), so the
 * next entry is found by a linear scan rather than a heap.
 */
import type { Labels } from '@logsvc/api';
import type { Direction, EntryCursor } from '../source';
import type { ChunkStats } from '../stats';

export class DedupingMergeCursor implements EntryCursor {
  timestampNs = 0n;
  line: Buffer = Buffer.alloc(0);
  structuredMetadata: Labels = [];

  /** Cursors that still have a current entry. */
  private readonly live: EntryCursor[] = [];
  /** The cursor whose entry was returned last; advanced on the next call. */
  private pending: EntryCursor | null = null;
  private started = false;
  /** Copies of the lines returned at `seenTs`, kept only while another cursor is at it. */
  private seen: Buffer[] = [];
  private seenTs = -1n;

  constructor(
    private readonly cursors: readonly EntryCursor[],
    private readonly direction: Direction,
    private readonly stats: ChunkStats,
  ) {}

  next(): boolean {
    if (!this.started) {
      this.started = true;
      for (const c of this.cursors) if (c.next()) this.live.push(c);
    } else if (this.pending !== null) {
      this.advance(this.pending);
      this.pending = null;
    }
    for (;;) {
      const c = this.pick();
      if (c === null) return false;
      const ts = c.timestampNs;
      if (ts !== this.seenTs) {
        if (this.seen.length > 0) this.seen = [];
        this.seenTs = ts;
      } else if (this.isSeen(c.line)) {
        this.stats.totalDuplicates++;
        this.advance(c);
        continue;
      }
      if (this.otherAt(c, ts)) this.seen.push(Buffer.from(c.line));
      this.timestampNs = ts;
      this.line = c.line;
      this.structuredMetadata = c.structuredMetadata;
      this.pending = c;
      return true;
    }
  }

  /** The live cursor whose entry comes first in direction order (first cursor on ties). */
  private pick(): EntryCursor | null {
    const live = this.live;
    if (live.length === 0) return null;
    let best = live[0];
    const forward = this.direction === 'forward';
    for (let i = 1; i < live.length; i++) {
      const ts = live[i].timestampNs;
      if (forward ? ts < best.timestampNs : ts > best.timestampNs) best = live[i];
    }
    return best;
  }

  private otherAt(c: EntryCursor, ts: bigint): boolean {
    for (const o of this.live) if (o !== c && o.timestampNs === ts) return true;
    return false;
  }

  private isSeen(line: Buffer): boolean {
    for (const s of this.seen) if (s.equals(line)) return true;
    return false;
  }

  private advance(c: EntryCursor): void {
    if (c.next()) return;
    this.live.splice(this.live.indexOf(c), 1);
  }
}
