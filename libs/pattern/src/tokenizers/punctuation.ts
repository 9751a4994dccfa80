import { LINE_TOO_LONG, type LineTokenizer, type Tokenized } from './line-tokenizer';

/** Go's unicode.IsLetter / IsNumber / IsPunct, for characters outside ASCII. */
const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;
const PUNCT = /\p{P}/u;

// ASCII classes, as Loki's punctuationTokenizer sees them: letters, digits and `_-.:/` belong
// to a token; a space, `=` and the other ASCII punctuation (Go's category P, which leaves out
// `$+<>^`|~`) end one.
const enum Ascii {
  Word = 0,
  Space = 1,
  Delimiter = 2,
  Other = 3,
}
const ASCII_CLASS = new Uint8Array(128).fill(Ascii.Other);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9_\-.:/]/.test(ch)) ASCII_CLASS[c] = Ascii.Word;
  else if (ch === ' ') ASCII_CLASS[c] = Ascii.Space;
  else if (ch === '=' || PUNCT.test(ch)) ASCII_CLASS[c] = Ascii.Delimiter;
}

/** Tokens a line is cut into at most, as Loki (longer lines become too long to train anyway). */
const MAX_TOKENS = 127;

/**
 * Loki's punctuationTokenizer: splits at spaces (remembered, so the pattern keeps the line's
 * spacing) and at punctuation, which becomes a token of its own. Used for lines that are
 * neither logfmt nor JSON, and for the message field of JSON lines.
 */
export class PunctuationTokenizer implements LineTokenizer {
  constructor(private readonly maxLineLength: number) {}

  tokenize(line: Buffer): Tokenized | typeof LINE_TOO_LONG | null {
    if (line.length > this.maxLineLength) return LINE_TOO_LONG;
    return this.tokenizeText(line.toString('utf8'));
  }

  tokenizeText(text: string): Tokenized {
    const tokens: string[] = [];
    const spacesAfter: number[] = [];
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      if (tokens.length >= MAX_TOKENS) break;
      const c = text.charCodeAt(i);
      let cls: Ascii;
      let width = 1;
      if (c < 128) cls = ASCII_CLASS[c];
      else {
        const cp = text.codePointAt(i) ?? c;
        width = cp > 0xffff ? 2 : 1;
        const ch = text.slice(i, i + width);
        if (LETTER_OR_NUMBER.test(ch)) cls = Ascii.Word;
        else cls = PUNCT.test(ch) ? Ascii.Delimiter : Ascii.Other;
      }
      if (cls === Ascii.Word || cls === Ascii.Other) {
        i += width - 1;
        continue;
      }
      if (i > start) tokens.push(text.slice(start, i));
      if (cls === Ascii.Space) spacesAfter.push(tokens.length - 1);
      else tokens.push(text.slice(i, i + width));
      i += width - 1;
      start = i + 1;
    }
    if (start < text.length) tokens.push(text.slice(start));
    return { tokens, spacesAfter };
  }

  join(tokens: readonly string[], spacesAfter: readonly number[] | null): string {
    return joinWithSpaces(tokens, spacesAfter ?? []);
  }
}

/**
 * The tokens with a space after each token listed in `spacesAfter`. As in Loki, a line that
 * starts with a space records token -1, which no token matches: such a pattern loses its spaces.
 */
export function joinWithSpaces(tokens: readonly string[], spacesAfter: readonly number[]): string {
  let out = '';
  let s = 0;
  for (let i = 0; i < tokens.length; i++) {
    out += tokens[i];
    while (s < spacesAfter.length && i === spacesAfter[s]) {
      out += ' ';
      s++;
    }
  }
  return out;
}
