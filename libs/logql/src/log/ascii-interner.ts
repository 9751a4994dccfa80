/**
 * One string per short ASCII value seen lately: a parser that reads the same few values on
 * line after line (`level=info`) compares the line's bytes to them in place and makes no new
 * string (and a grouping that compares values by identity finds the previous row's at once).
 * The bytes are copied: a line's buffer may be pooled memory that is rewritten later.
 */
import { bytesToString } from './json-scanner';

const CAPACITY = 16;
const MAX_LENGTH = 32;

export class AsciiInterner {
  private readonly bytes: Uint8Array[] = [];
  private readonly strings: string[] = [];
  /** The slot replaced on the next miss once all are used. */
  private next = 0;

  /** `b[start, end)` (ASCII) as a string. */
  get(b: Buffer, start: number, end: number): string {
    const n = end - start;
    if (n > MAX_LENGTH) return bytesToString(b, start, end, true);
    const all = this.bytes;
    search: for (let k = 0; k < all.length; k++) {
      const cand = all[k];
      if (cand.length !== n) continue;
      for (let i = 0; i < n; i++) if (cand[i] !== b[start + i]) continue search;
      return this.strings[k];
    }
    const s = bytesToString(b, start, end, true);
    const copy = Uint8Array.prototype.slice.call(b, start, end);
    if (all.length < CAPACITY) {
      all.push(copy);
      this.strings.push(s);
    } else {
      all[this.next] = copy;
      this.strings[this.next] = s;
      this.next = (this.next + 1) % CAPACITY;
    }
    return s;
  }
}
