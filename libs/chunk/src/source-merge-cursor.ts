import { EMPTY_LABELS, type Labels } from '@logsvc/api';
import type { Direction, EntryCursor } from './cursor';
import { TieBuffer } from './tie-buffer';

const EMPTY_LINE = Buffer.alloc(0);
/** Below any 64-bit timestamp: no timestamp group is open yet. */
const NO_TIMESTAMP = -(1n << 64n);

/**
 * Merges cursors over one stream held by several sources (the chunks of a stream, ingester
 * memory and the store, replicas) into one cursor in `direction` order, the cursors given in
 * priority order. Within one timestamp, the forward order is the first cursor's entries in its
 * order, then each later cursor's entries whose line was not seen at that timestamp (Loki's
 * merge); backward is exactly the reverse. Dropped copies are reported to `duplicate()`.
 *
 * A timestamp only one cursor holds is passed through without copying. When several hold it,
 * their entries at it are copied into a buffer, de-duplicated and replayed. The current line is
 * a view that stays valid until the next call to `next()`. Cursors are few, so the next entry
 * is found by a linear scan rather than a heap.
 */
export class SourceMergeCursor implements EntryCursor {
  private ts = 0n;
  private lineView: Buffer = EMPTY_LINE;
  private current: EntryCursor | null = null;
  /** Cursors that still have a current entry, in priority order. */
  private live: EntryCursor[] | null = null;
  /** The cursor whose entry was returned last; advanced on the next call. */
  private pending: EntryCursor | null = null;
  private groupTs = NO_TIMESTAMP;
  private readonly ties = new TieBuffer();
  private replaying = false;
  private readonly forward: boolean;

  constructor(
    private readonly cursors: readonly EntryCursor[],
    direction: Direction,
  ) {
    this.forward = direction === 'forward';
  }

  get timestampNs(): bigint {
    return this.ts;
  }

  get line(): Buffer {
    return this.lineView;
  }

  get structuredMetadata(): Labels {
    if (this.replaying) return this.ties.structuredMetadata;
    return this.current === null ? EMPTY_LABELS : this.current.structuredMetadata;
  }

  next(): boolean {
    if (this.live === null) {
      this.live = this.cursors.filter((c) => c.next());
    } else if (this.pending !== null) {
      this.advance(this.pending);
      this.pending = null;
    }
    if (this.replaying && this.replayNext()) return true;
    const c = this.pick();
    if (c === null) return this.finish();
    const ts = c.timestampNs;
    if (ts !== this.groupTs) {
      this.groupTs = ts;
      if (this.otherAt(c, ts)) {
        this.bufferGroup(ts);
        return this.replayNext(); // true: a group's first entry is always kept
      }
    }
    this.current = c;
    this.pending = c;
    this.ts = ts;
    this.lineView = c.line;
    return true;
  }

  /** Called for each entry dropped as a copy of one already returned. */
  protected duplicate(): void {}

  private replayNext(): boolean {
    if (this.ties.next()) {
      this.lineView = this.ties.line;
      this.ts = this.groupTs;
      return true;
    }
    this.replaying = false;
    this.current = null;
    return false;
  }

  /** Copies every live cursor's entries at `ts` into the tie buffer, in priority order. */
  private bufferGroup(ts: bigint): void {
    const live = this.live!;
    this.ties.clear();
    for (let i = 0; i < live.length; i++) {
      const c = live[i];
      if (c.timestampNs !== ts) continue;
      let more = true;
      while (more && c.timestampNs === ts) {
        this.ties.push(c.line, c.structuredMetadata);
        more = c.next();
      }
      this.ties.endSegment();
      if (!more) live.splice(i--, 1);
    }
    for (let dropped = this.ties.settle(this.forward); dropped > 0; dropped--) this.duplicate();
    this.replaying = true;
  }

  /** The live cursor whose entry comes first in direction order (the first cursor on ties). */
  private pick(): EntryCursor | null {
    const live = this.live!;
    if (live.length === 0) return null;
    let best = live[0];
    for (let i = 1; i < live.length; i++) {
      const ts = live[i].timestampNs;
      if (this.forward ? ts < best.timestampNs : ts > best.timestampNs) best = live[i];
    }
    return best;
  }

  private otherAt(c: EntryCursor, ts: bigint): boolean {
    for (const o of this.live!) if (o !== c && o.timestampNs === ts) return true;
    return false;
  }

  private advance(c: EntryCursor): void {
    if (c.next()) return;
    const live = this.live!;
    live.splice(live.indexOf(c), 1);
  }

  private finish(): false {
    this.current = null;
    this.lineView = EMPTY_LINE;
    return false;
  }
}
