/** A cursor over the token list with the helpers the parser needs. */
import { ParseError } from './errors';
import { tokenName, type Token } from './tokens';

/**
 * How deeply expressions may nest (parentheses, `^` chains, `,`-joined label filters). Loki has
 * no limit; a recursive-descent parser needs one so that hostile input gets a parse error
 * instead of exhausting the stack.
 */
export const MAX_NESTING = 400;

export class TokenStream {
  private index = 0;
  private depth = 0;

  constructor(
    readonly input: string,
    private readonly tokens: readonly Token[],
  ) {}

  /** The token `ahead` of the current one; reaching the lexer's error throws it. */
  peek(ahead = 0): Token {
    return readable(this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)]);
  }

  next(): Token {
    const tok = readable(this.tokens[this.index]);
    if (this.index < this.tokens.length - 1) this.index++;
    return tok;
  }

  /** End offset of the last consumed token. */
  lastEnd(): number {
    return this.index === 0 ? 0 : this.tokens[this.index - 1].end;
  }

  isOp(op: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.type === 'OP' && t.value === op;
  }

  isKw(word: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.type === 'KW' && t.value === word;
  }

  isFunc(word: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.type === 'FUNC' && t.value === word;
  }

  /** The `ip` of `ip("...")`: a function token (followed by `(`); a bare `ip` is a label name. */
  isIp(ahead = 0): boolean {
    return this.isFunc('ip', ahead);
  }

  expectOp(op: string, expecting = op): Token {
    if (!this.isOp(op)) throw this.unexpected(expecting);
    return this.next();
  }

  /**
   * `op` after an expression: a binary operator or a pipeline stage could come there too, so
   * Loki's parser lists no expected token in its error.
   */
  expectOpAfterExpr(op: string): Token {
    if (!this.isOp(op)) throw this.unexpected();
    return this.next();
  }

  expectType(type: Token['type'], expecting: string = type): Token {
    if (this.peek().type !== type) throw this.unexpected(expecting);
    return this.next();
  }

  expectIdent(): Token {
    return this.expectType('IDENT', 'IDENTIFIER');
  }

  /** Marks entry into a nested construct; throws ParseError beyond MAX_NESTING. */
  enter(): void {
    if (++this.depth > MAX_NESTING) {
      throw ParseError.at(
        this.input,
        this.peek().start,
        `syntax error: expression nested too deeply (more than ${MAX_NESTING} levels)`,
      );
    }
  }

  leave(): void {
    this.depth--;
  }

  /** `syntax error: unexpected X[, expecting Y]` at the current token. */
  unexpected(expecting?: string, tok: Token = this.peek()): ParseError {
    // Where Loki would take a stray character as the identifier it expects, say no more.
    const taken = tok.type === 'OTHER' && expecting?.includes('IDENTIFIER') === true;
    const suffix = expecting === undefined || taken ? '' : `, expecting ${expecting}`;
    return ParseError.at(
      this.input,
      tok.start,
      `syntax error: unexpected ${tokenName(tok)}${suffix}`,
      scannedCharByChar(tok),
    );
  }
}

/**
 * Tokens Loki's lexer finishes with `Scanner.Next` (ranges, durations, byte sizes, parser flags,
 * two-character operators): an error found with one of them as the lookahead is at line 0.
 */
function scannedCharByChar(tok: Token): boolean {
  switch (tok.type) {
    case 'RANGE':
    case 'DURATION':
    case 'BYTES':
    case 'FLAG':
      return true;
    case 'OP':
      return tok.value.length === 2;
    default:
      return false;
  }
}

function readable(tok: Token): Token {
  if (tok.type === 'ERROR') throw tok.error;
  return tok;
}
