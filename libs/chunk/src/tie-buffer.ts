import { EMPTY_LABELS, type Labels } from '@logsvc/api';
import { ByteArena } from './byte-arena';
import { LineSet } from './line-set';

const INITIAL_ENTRIES = 64;
const EMPTY_LINE = Buffer.alloc(0);

/**
 * The entries several cursors hold at one timestamp, copied so that they can be put in order:
 * each cursor's entries form a segment (cursors pushed in priority order), and `settle` keeps,
 * in forward order, the first segment's entries, then each later segment's entries whose line
 * no earlier entry had. Forward order within a segment is the cursor's own order for a forward
 * cursor and the reverse for a backward one; `next` then replays the kept entries forward, or
 * exactly reversed. Line bytes go to one growing arena and positions to typed arrays, so a
 * group allocates only the line views it hands out (and arrays that grow to the largest group).
 */
export class TieBuffer {
  private readonly arena = new ByteArena();
  private readonly seen = new LineSet();
  private starts = new Uint32Array(INITIAL_ENTRIES);
  private ends = new Uint32Array(INITIAL_ENTRIES);
  private metadata: Labels[] = [];
  /** Segment k holds entries [segmentEnds[k - 1] (0 for k = 0), segmentEnds[k]). */
  private segmentEnds: number[] = [];
  /** Kept entries in replay order, and where replay is. */
  private order = new Int32Array(INITIAL_ENTRIES);
  private kept = 0;
  private at = 0;
  private count = 0;
  line: Buffer = EMPTY_LINE;
  structuredMetadata: Labels = EMPTY_LABELS;

  /** Empties the buffer; line views handed out before stop being valid. */
  clear(): void {
    this.arena.reset();
    for (let i = 0; i < this.count; i++) this.metadata[i] = EMPTY_LABELS;
    this.count = 0;
    this.segmentEnds.length = 0;
    this.kept = 0;
    this.at = 0;
  }

  push(line: Buffer, structuredMetadata: Labels): void {
    if (this.count === this.starts.length) this.grow();
    const i = this.count++;
    this.starts[i] = this.arena.copy(line);
    this.ends[i] = this.arena.used;
    this.metadata[i] = structuredMetadata;
  }

  /** Ends the current cursor's segment. */
  endSegment(): void {
    this.segmentEnds.push(this.count);
  }

  /** Drops copies (see the class comment) and prepares replay; returns how many were dropped. */
  settle(forward: boolean): number {
    this.seen.clear();
    const buf = this.arena.buf;
    let kept = 0;
    let start = 0;
    for (const end of this.segmentEnds) {
      const step = forward ? 1 : -1;
      for (let i = forward ? start : end - 1, n = end - start; n > 0; n--, i += step) {
        if (this.seen.add(buf, this.starts[i], this.ends[i])) this.order[kept++] = i;
      }
      start = end;
    }
    if (!forward) this.order.subarray(0, kept).reverse();
    this.kept = kept;
    this.at = 0;
    return this.count - kept;
  }

  /** Moves to the next kept entry (`line`, `structuredMetadata`); false when none is left. */
  next(): boolean {
    if (this.at === this.kept) {
      this.line = EMPTY_LINE;
      this.structuredMetadata = EMPTY_LABELS;
      return false;
    }
    const i = this.order[this.at++];
    this.line = this.arena.buf.subarray(this.starts[i], this.ends[i]);
    this.structuredMetadata = this.metadata[i];
    return true;
  }

  private grow(): void {
    const cap = this.starts.length * 2;
    const starts = new Uint32Array(cap);
    starts.set(this.starts);
    this.starts = starts;
    const ends = new Uint32Array(cap);
    ends.set(this.ends);
    this.ends = ends;
    this.order = new Int32Array(cap);
  }
}
