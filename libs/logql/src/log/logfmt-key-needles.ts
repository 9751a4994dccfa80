/**
 * A line prefilter for `| logfmt` under parser hints: when every name a wanted label can come
 * from is made of letters and digits only, a key gives one of them only if, trimmed, it is
 * exactly that name's bytes (sanitizing would turn any other character into `_`, which no such
 * name has). So a line where no name's bytes are followed by `=` (or by a non-ASCII byte,
 * which may be trailing Unicode space in the key) cannot give a wanted label, and a parser
 * that sets no error (not `--strict`) and keeps no empty value (not `--keep-empty`) has
 * nothing to do on it: one search per name skips it.
 *
 * With one such name (`sum by (level) (… | logfmt …)`), the same search also finds the key:
 * `locate` gives where its value starts when the first `name=` at a pair's start has only
 * ASCII and no `"` before it (there, pairs start exactly after whitespace), so the parser reads
 * that value and nothing else of the line. Lines may be ranges of a block's buffer (read in
 * place): searches then run on past a line and serve the lines after it (see `searched`).
 */
import type { ParserHints } from './parser-hints';

/** `locate`'s answer when the line cannot give the wanted label. */
export const NO_KEY = -1;
/** `locate`'s answer when only a full parse of the line tells. */
export const PARSE_LINE = -2;

export class LogfmtKeyNeedles {
  /**
   * Per needle, its last search (`find`): in `searched[k]`, no occurrence of needle k lies in
   * `[searchedFrom[k], found[k])` and one starts at `found[k]` (or none from `searchedFrom[k]`
   * on, when -1). Lines read in place lie one after another in their block's buffer, and a
   * search runs on past its line's end: its answer serves the lines up to where it stopped, so
   * each occurrence is searched for once per block (without this, a block lacking the name
   * would be searched to its end from every line). Buffers a cursor hands out do not change
   * while it may hand them out again (`EntryCursor.lineSource`).
   */
  private readonly searched: (Buffer | null)[];
  private readonly searchedFrom: Int32Array;
  private readonly found: Int32Array;

  private constructor(private readonly needles: readonly Buffer[]) {
    this.searched = needles.map(() => null);
    this.searchedFrom = new Int32Array(needles.length);
    this.found = new Int32Array(needles.length);
  }

  /** The prefilter for these hints, or null when a wanted name rules it out (or no hints). */
  static forHints(hints: ParserHints): LogfmtKeyNeedles | null {
    const names = hints.keyNames();
    if (names === null || names.length === 0) return null;
    if (!names.every((n) => /^[a-zA-Z][a-zA-Z0-9]*$/.test(n))) return null;
    return new LogfmtKeyNeedles(names.map((n) => Buffer.from(n, 'latin1')));
  }

  /** The one name's bytes when there is one name (then `locate` answers), else null. */
  get single(): Buffer | null {
    return this.needles.length === 1 ? this.needles[0] : null;
  }

  /**
   * Whether some name's bytes stand before `=` (or a non-ASCII byte) in the line
   * `b[start, end)`.
   */
  mayHoldKey(b: Buffer, start: number, end: number): boolean {
    for (let k = 0; k < this.needles.length; k++) {
      const needle = this.needles[k];
      let from = start;
      for (;;) {
        const at = this.find(k, b, from);
        if (at < 0 || at + needle.length > end) break;
        const next = at + needle.length < end ? b[at + needle.length] : -1;
        if (next === 0x3d || next >= 0x80) return true;
        from = at + 1;
      }
    }
    return false;
  }

  /**
   * For the `single` name, in the line `b[start, end)`: where the value of its first key starts
   * (after `name=`, an offset into `b`), NO_KEY when no key can be that name, or PARSE_LINE
   * when quotes or non-ASCII bytes before it (or next to the name) leave only a full parse to
   * tell.
   */
  locate(b: Buffer, start: number, end: number, needle: Buffer): number {
    let from = start;
    /** `b[start, clean)` has no `"` and no byte >= 0x80. */
    let clean = start;
    const n = needle.length;
    for (;;) {
      const at = this.find(0, b, from);
      if (at < 0 || at + n > end) return NO_KEY;
      const next = at + n < end ? b[at + n] : -1;
      // Unicode space after a key is trimmed (`level\u00a0=`).
      if (next >= 0x80) return PARSE_LINE;
      if (next === 0x3d) {
        const before = at === start ? 0x20 : b[at - 1];
        // So is Unicode space before it (`\u00a0level=`), and a key may follow a quoted
        // value's closing quote (`a="x"level=`).
        if (before >= 0x80 || before === 0x22) return PARSE_LINE;
        if (before <= 0x20) {
          for (; clean < at; clean++) {
            const c = b[clean];
            if (c === 0x22 || c >= 0x80) return PARSE_LINE;
          }
          return at + n + 1;
        }
      }
      from = at + 1;
    }
  }

  /** `b.indexOf(needles[k], from)`, answered by needle k's last search when it can. */
  private find(k: number, b: Buffer, from: number): number {
    const found = this.found[k];
    if (b === this.searched[k] && from >= this.searchedFrom[k] && (found < 0 || from <= found)) {
      return found;
    }
    const at = b.indexOf(this.needles[k], from);
    this.searched[k] = b;
    this.searchedFrom[k] = from;
    this.found[k] = at;
    return at;
  }
}
