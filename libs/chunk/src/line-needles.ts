/**
 * What a cursor's line prefilter searches a block's line bytes for: one needle
 * (`lineContains`), or several of which a line must hold one (`lineContainsAny`, from a
 * `|~ "a|b"` or `|= "a" or "b"` filter). Each search finds the match that starts first; a
 * needle's next match is remembered, so walking a block forward searches each needle's bytes
 * about once, however the matches of the needles interleave.
 */
export class LineNeedles {
  /** The length of the needle `first` / `last` found. */
  length = 0;
  /** Per needle: where its next match starts (-1: none), valid for searches from `from[k]`. */
  private readonly next: Int32Array;
  private readonly from: Int32Array;
  private lines: Buffer | null = null;

  private constructor(private readonly needles: readonly Buffer[]) {
    this.next = new Int32Array(needles.length);
    this.from = new Int32Array(needles.length).fill(-1);
  }

  /** How many needles: with one, a line holds a match only where `first` finds it. */
  get count(): number {
    return this.needles.length;
  }

  /** The same needles with a search state of their own (one per run being walked). */
  fresh(): LineNeedles {
    return new LineNeedles(this.needles);
  }

  /** From a cursor's options: null when there is nothing to search for (every line passes). */
  static of(
    lineContains: Buffer | undefined,
    any: readonly Buffer[] | undefined,
  ): LineNeedles | null {
    if (lineContains !== undefined && lineContains.length > 0)
      return new LineNeedles([lineContains]);
    if (any === undefined || any.length === 0 || any.some((n) => n.length === 0)) return null;
    return new LineNeedles(any);
  }

  /** Where the first match at or after `from` starts, or -1; `length` tells the needle's. */
  first(lines: Buffer, from: number): number {
    if (this.lines !== lines) {
      this.lines = lines;
      this.from.fill(-1);
    }
    let best = -1;
    for (let k = 0; k < this.needles.length; k++) {
      let at = this.next[k];
      // A remembered match stays the first one from any later start up to it.
      if (this.from[k] < 0 || this.from[k] > from || (at >= 0 && at < from)) {
        at = lines.indexOf(this.needles[k], from);
        this.next[k] = at;
        this.from[k] = from;
      }
      if (at >= 0 && (best < 0 || at < best)) {
        best = at;
        this.length = this.needles[k].length;
      }
    }
    return best;
  }

  /**
   * Where the match that starts last in `lines[start, end)` and ends by `end` starts, or -1;
   * `length` as `first`.
   */
  last(lines: Buffer, start: number, end: number): number {
    let best = -1;
    for (const needle of this.needles) {
      const last = end - needle.length;
      const at = last < start ? -1 : lines.lastIndexOf(needle, last);
      if (at >= start && at > best) {
        best = at;
        this.length = needle.length;
      }
    }
    return best;
  }

  /** Whether `lines[start, end)` holds a needle. */
  within(lines: Buffer, start: number, end: number): boolean {
    for (const needle of this.needles) {
      const at = lines.indexOf(needle, start);
      if (at >= 0 && at + needle.length <= end) return true;
    }
    return false;
  }
}
