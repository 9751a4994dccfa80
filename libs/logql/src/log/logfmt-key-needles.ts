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
 * that value and nothing else of the line.
 */
import type { ParserHints } from './parser-hints';

/** `locate`'s answer when the line cannot give the wanted label. */
export const NO_KEY = -1;
/** `locate`'s answer when only a full parse of the line tells. */
export const PARSE_LINE = -2;

export class LogfmtKeyNeedles {
  private constructor(private readonly needles: readonly Buffer[]) {}

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

  /** Whether some name's bytes stand before `=` (or a non-ASCII byte) in the line. */
  mayHoldKey(line: Buffer): boolean {
    for (const needle of this.needles) {
      let from = 0;
      for (;;) {
        const at = line.indexOf(needle, from);
        if (at < 0) break;
        const next = line[at + needle.length];
        if (next === 0x3d || next >= 0x80) return true;
        from = at + 1;
      }
    }
    return false;
  }

  /**
   * For the `single` name: where the value of its first key starts (after `name=`), NO_KEY when
   * no key can be that name, or PARSE_LINE when quotes or non-ASCII bytes before it (or next to
   * the name) leave only a full parse to tell.
   */
  locate(line: Buffer, needle: Buffer): number {
    let from = 0;
    /** `line[0, clean)` has no `"` and no byte >= 0x80. */
    let clean = 0;
    for (;;) {
      const at = line.indexOf(needle, from);
      if (at < 0) return NO_KEY;
      const next = line[at + needle.length];
      // Unicode space after a key is trimmed (`level\u00a0=`).
      if (next >= 0x80) return PARSE_LINE;
      if (next === 0x3d) {
        const before = at === 0 ? 0x20 : line[at - 1];
        // So is Unicode space before it (`\u00a0level=`), and a key may follow a quoted
        // value's closing quote (`a="x"level=`).
        if (before >= 0x80 || before === 0x22) return PARSE_LINE;
        if (before <= 0x20) {
          for (; clean < at; clean++) {
            const c = line[clean];
            if (c === 0x22 || c >= 0x80) return PARSE_LINE;
          }
          return at + needle.length + 1;
        }
      }
      from = at + 1;
    }
  }
}
