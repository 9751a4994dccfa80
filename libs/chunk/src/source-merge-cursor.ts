import { EMPTY_LABELS, type Labels } from '@logsvc/api';
import type { Direction, EntryCursor } from './cursor';
import { type CursorSummary, joinSummaries } from './run-summary';
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
 *
 * Cursors with a `startNs` are started only once the merge reaches that timestamp, and a cursor
 * that runs dry to `wait` makes the merge wait too (its own `wait` gives the promise): so a
 * merge over lazily fetched chunks fetches them only as it is read.
 */
export class SourceMergeCursor implements EntryCursor {
  private ts = 0n;
  /** The line while replaying a tie group (or none); else the line is `shown`'s. */
  private lineView: Buffer = EMPTY_LINE;
  /** The cursor whose entry is passed through, null while replaying or at the end. */
  private shown: EntryCursor | null = null;
  private current: EntryCursor | null = null;
  /** Cursors that still have a current entry, in priority order. */
  private live: EntryCursor[] | null = null;
  /** Cursors not started yet, by `startNs` in direction order. */
  private deferred: EntryCursor[] = [];
  /** Cursors that ran dry until their `wait` resolves. */
  private waiting: EntryCursor[] = [];
  /** Each cursor's place in priority order (made when a cursor starts late). */
  private ranks: Map<EntryCursor, number> | null = null;
  /** The cursor whose entry was returned last; advanced on the next call. */
  private pending: EntryCursor | null = null;
  private groupTs = NO_TIMESTAMP;
  /** Made at the first timestamp two cursors share: most merges never meet one. */
  private tieBuffer: TieBuffer | null = null;
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
    const c = this.shown;
    return c === null ? this.lineView : c.line;
  }

  get lineSource(): Buffer {
    const c = this.shown;
    return c === null ? this.lineView : c.lineSource;
  }

  get lineStart(): number {
    const c = this.shown;
    return c === null ? 0 : c.lineStart;
  }

  get lineEnd(): number {
    const c = this.shown;
    return c === null ? this.lineView.length : c.lineEnd;
  }

  get structuredMetadata(): Labels {
    if (this.replaying) return this.tieBuffer!.structuredMetadata;
    return this.current === null ? EMPTY_LABELS : this.current.structuredMetadata;
  }

  /** The passed-through cursor's; none while replaying a timestamp several cursors hold. */
  get metadataNames(): readonly string[] | undefined {
    if (this.replaying) return undefined;
    return this.current === null ? undefined : this.current.metadataNames;
  }

  next(): boolean {
    if (this.live === null) {
      this.live = [];
      for (const c of this.cursors) {
        if (c.startNs !== undefined) this.deferred.push(c);
        else if (c.next())
          this.live.push(c); // in priority order
        else if (c.wait?.()) this.waiting.push(c);
      }
      const fwd = this.forward;
      this.deferred.sort((a, b) => {
        const x = a.startNs!;
        const y = b.startNs!;
        return x === y ? 0 : x < y === fwd ? -1 : 1;
      });
    } else if (this.pending !== null) {
      this.advance(this.pending);
      this.pending = null;
    }
    if (this.replaying && this.replayNext()) return true;
    if ((this.waiting.length > 0 || this.deferred.length > 0) && !this.ready()) {
      return this.finish();
    }
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
    this.shown = c;
    return true;
  }

  /** The cursors' runs as one summary, when each has one and no two of their runs overlap. */
  summarize(): CursorSummary | null {
    if (this.live !== null) return null;
    return joinSummaries(this.cursors.map((c) => c.summarize?.() ?? null));
  }

  wait(): Promise<void> | null {
    if (this.waiting.length === 0) return null;
    return Promise.all(this.waiting.map((c) => c.wait!())).then(() => undefined);
  }

  /**
   * Resumes waiting cursors and starts deferred ones the merge has reached; false while some
   * cursor still waits (its next entry could come first).
   */
  private ready(): boolean {
    if (this.waiting.length > 0) {
      const waiting = this.waiting;
      this.waiting = [];
      for (const c of waiting) this.start(c);
      if (this.waiting.length > 0) return false;
    }
    while (this.deferred.length > 0) {
      const best = this.pick();
      const startNs = this.deferred[0].startNs!;
      if (best !== null && (this.forward ? startNs > best.timestampNs : startNs < best.timestampNs))
        return true;
      this.start(this.deferred.shift()!);
      if (this.waiting.length > 0) return false;
    }
    return true;
  }

  /** Reads a cursor's first (or, after a wait, next) entry and files it by what it gave. */
  private start(c: EntryCursor): void {
    if (c.next()) this.addLive(c);
    else if (c.wait?.()) this.waiting.push(c);
  }

  /** Adds a cursor to `live` at its place in priority order. */
  private addLive(c: EntryCursor): void {
    const ranks = (this.ranks ??= new Map(this.cursors.map((x, i) => [x, i])));
    const live = this.live!;
    const rank = ranks.get(c)!;
    let at = live.length;
    while (at > 0 && ranks.get(live[at - 1])! > rank) at--;
    live.splice(at, 0, c);
  }

  /** Called for each entry dropped as a copy of one already returned. */
  protected duplicate(): void {}

  private replayNext(): boolean {
    const ties = this.tieBuffer!;
    if (ties.next()) {
      this.shown = null;
      this.lineView = ties.line;
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
    const ties = (this.tieBuffer ??= new TieBuffer());
    ties.clear();
    for (let i = 0; i < live.length; i++) {
      const c = live[i];
      if (c.timestampNs !== ts) continue;
      let more = true;
      while (more && c.timestampNs === ts) {
        ties.push(c.line, c.structuredMetadata);
        more = c.next();
      }
      ties.endSegment();
      if (!more) {
        live.splice(i--, 1);
        if (c.wait?.()) this.waiting.push(c);
      }
    }
    for (let dropped = ties.settle(this.forward); dropped > 0; dropped--) this.duplicate();
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
    if (c.wait?.()) this.waiting.push(c);
  }

  private finish(): false {
    this.current = null;
    this.shown = null;
    this.lineView = EMPTY_LINE;
    return false;
  }
}
