/**
 * A line prefilter for `| logfmt` under parser hints: when every name a wanted label can come
 * from is made of letters and digits only, a key gives one of them only if, trimmed, it is
 * exactly that name's bytes (sanitizing would turn any other character into `_`, which no such
 * name has). So a line where no name's bytes are followed by `=` (or by a non-ASCII byte,
 * which may be trailing Unicode space in the key) cannot give a wanted label, and a parser
 * that sets no error (not `--strict`) and keeps no empty value (not `--keep-empty`) has
 * nothing to do on it: one search per name skips it.
 */
import type { ParserHints } from './parser-hints';

export class LogfmtKeyNeedles {
  private constructor(private readonly needles: readonly Buffer[]) {}

  /** The prefilter for these hints, or null when a wanted name rules it out (or no hints). */
  static forHints(hints: ParserHints): LogfmtKeyNeedles | null {
    const names = hints.keyNames();
    if (names === null || names.length === 0) return null;
    if (!names.every((n) => /^[a-zA-Z][a-zA-Z0-9]*$/.test(n))) return null;
    return new LogfmtKeyNeedles(names.map((n) => Buffer.from(n, 'latin1')));
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
}
