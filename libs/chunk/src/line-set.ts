import { hashBytes } from '@logsvc/api';
const INITIAL_ENTRIES = 16;
const EMPTY = Buffer.alloc(0);

/**
 * A set of line byte strings, used to drop copies among the entries of one timestamp. It holds
 * references `(buffer, start, end)`, not copies: the caller keeps those bytes unchanged while
 * they are in the set. Lookups go through a hash table of typed arrays, so adding allocates
 * nothing once the arrays have grown to the largest set seen; `clear` costs the set's size.
 */
export class LineSet {
  private bufs: Buffer[] = [];
  private starts = new Uint32Array(INITIAL_ENTRIES);
  private ends = new Uint32Array(INITIAL_ENTRIES);
  private hashes = new Int32Array(INITIAL_ENTRIES);
  /** Next entry in the same bucket, -1 at the end. */
  private chain = new Int32Array(INITIAL_ENTRIES);
  /** Bucket -> newest entry, -1 when empty; at least twice as many buckets as entries. */
  private table = new Int32Array(2 * INITIAL_ENTRIES).fill(-1);
  private n = 0;

  get size(): number {
    return this.n;
  }

  clear(): void {
    const mask = this.table.length - 1;
    for (let i = 0; i < this.n; i++) {
      this.table[this.hashes[i] & mask] = -1;
      this.bufs[i] = EMPTY;
    }
    this.n = 0;
  }

  /** Adds `buf[start, end)` unless equal bytes are in the set; true when it was added. */
  add(buf: Buffer, start: number, end: number): boolean {
    const hash = hashBytes(buf, start, end);
    const len = end - start;
    for (let i = this.table[hash & (this.table.length - 1)]; i >= 0; i = this.chain[i]) {
      if (
        this.hashes[i] === hash &&
        this.ends[i] - this.starts[i] === len &&
        buf.compare(this.bufs[i], this.starts[i], this.ends[i], start, end) === 0
      ) {
        return false;
      }
    }
    if (this.n === this.starts.length) this.grow();
    const i = this.n++;
    this.bufs[i] = buf;
    this.starts[i] = start;
    this.ends[i] = end;
    this.hashes[i] = hash;
    const bucket = hash & (this.table.length - 1);
    this.chain[i] = this.table[bucket];
    this.table[bucket] = i;
    return true;
  }

  private grow(): void {
    const cap = this.starts.length * 2;
    this.starts = grown(this.starts, new Uint32Array(cap));
    this.ends = grown(this.ends, new Uint32Array(cap));
    this.hashes = grown(this.hashes, new Int32Array(cap));
    this.chain = new Int32Array(cap);
    this.table = new Int32Array(2 * cap).fill(-1);
    const mask = this.table.length - 1;
    for (let i = 0; i < this.n; i++) {
      const bucket = this.hashes[i] & mask;
      this.chain[i] = this.table[bucket];
      this.table[bucket] = i;
    }
  }
}

function grown<T extends { set(from: T): void }>(from: T, to: T): T {
  to.set(from);
  return to;
}
