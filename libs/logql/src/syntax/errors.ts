import { LogsvcError } from '@logsvc/errors';

/**
 * Parse errors formatted the way Loki formats them (`pkg/logqlmodel/error.go`):
 * `parse error at line L, col C: <reason>`, or `parse error : <reason>` for errors found by
 * semantic checks, which Loki reports without a position (line = col = 0). Kind `bad_request`.
 */
export class ParseError extends LogsvcError {
  /** 1-based line, 0 when the error has no position. */
  readonly line: number;
  /** 1-based column in characters (code points), 0 when the error has no position. */
  readonly col: number;
  /** The reason alone, without the `parse error ...:` prefix. */
  readonly reason: string;
  /** UTF-16 offset in the query of the error (for positioned errors), else undefined. */
  readonly offset: number | undefined;

  constructor(reason: string, line = 0, col = 0, offset?: number) {
    super(
      'bad_request',
      line === 0 && col === 0
        ? `parse error : ${reason}`
        : `parse error at line ${line}, col ${col}: ${reason}`,
    );
    this.name = 'ParseError';
    this.reason = reason;
    this.line = line;
    this.col = col;
    this.offset = offset;
  }

  /**
   * An error at a UTF-16 offset of `input`; line and column are computed from it. `lineless`:
   * Loki reports line 0 there, as its lexer does after it read a token's tail character by
   * character (text/scanner's `Next` clears the line, not the column).
   */
  static at(input: string, offset: number, reason: string, lineless = false): ParseError {
    // Loki's scanner has no position before it reads a first character.
    if (input.length === 0) return new ParseError(reason);
    const { line, col } = lineCol(input, offset);
    return new ParseError(reason, lineless ? 0 : line, col, offset);
  }

  /** A semantic error: Loki reports these as `parse error : <reason>`. */
  static semantic(reason: string): ParseError {
    return new ParseError(reason);
  }
}

/** 1-based line and column (in code points) of a UTF-16 offset. */
export function lineCol(input: string, offset: number): { line: number; col: number } {
  let line = 1;
  let col = 1;
  const end = Math.min(offset, input.length);
  for (let i = 0; i < end; i++) {
    const c = input.charCodeAt(i);
    if (c === 0x0a) {
      line++;
      col = 1;
    } else if (c >= 0xdc00 && c <= 0xdfff && i > 0 && isHighSurrogate(input.charCodeAt(i - 1))) {
      // second half of a surrogate pair: same character
    } else {
      col++;
    }
  }
  return { line, col };
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}
