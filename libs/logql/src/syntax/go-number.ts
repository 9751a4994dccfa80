/**
 * The first error Go's `text/scanner` reports while it reads a number literal at
 * `input[start]` (Loki's lexer lets it read every number before looking at the text): prefixes
 * `0x`, `0o`, `0b` and a leading `0` (octal), `_` digit separators, `e` and `p` exponents.
 * Undefined for a well-formed literal. Errors are in the scanner's order: the first one found.
 */
export function goNumberLiteralError(input: string, start: number): string | undefined {
  let i = start;
  let error: string | undefined;
  const fail = (msg: string): void => {
    error ??= msg;
  };
  let base = 10;
  let prefix = '';
  let digitSeen = false;
  let separatorSeen = false;
  let invalid: string | undefined;
  const digits = (b: number): void => {
    for (;;) {
      const c = input[i];
      if (c === '_') separatorSeen = true;
      else if (c !== undefined && isDigitOf(c, b <= 10 ? 10 : 16)) {
        digitSeen = true;
        if (b < 10 && c >= String(b) && invalid === undefined) invalid = c;
      } else return;
      i++;
    }
  };
  let float = false;
  if (input[i] !== '.') {
    if (input[i] === '0') {
      i++;
      const p = (input[i] ?? '').toLowerCase();
      if (p === 'x' || p === 'o' || p === 'b') {
        i++;
        prefix = p;
        base = p === 'x' ? 16 : p === 'o' ? 8 : 2;
      } else {
        prefix = '0';
        base = 8;
        digitSeen = true;
      }
    }
    digits(base);
    if (input[i] === '.') {
      i++;
      float = true;
      if (prefix === 'o' || prefix === 'b') fail(`invalid radix point in ${literalName(prefix)}`);
    }
  } else {
    i++;
    float = true;
  }
  if (float) digits(base);
  if (!digitSeen) fail(`${literalName(prefix)} has no digits`);
  const e = (input[i] ?? '').toLowerCase();
  if (e === 'e' || e === 'p') {
    if (e === 'e' && prefix !== '' && prefix !== '0') {
      fail(`'${input[i]}' exponent requires decimal mantissa`);
    } else if (e === 'p' && prefix !== 'x') {
      fail(`'${input[i]}' exponent requires hexadecimal mantissa`);
    }
    i++;
    float = true;
    if (input[i] === '+' || input[i] === '-') i++;
    const before = i;
    while (i < input.length && (isDigitOf(input[i], 10) || input[i] === '_')) i++;
    if (!/[0-9]/.test(input.slice(before, i))) fail('exponent has no digits');
  } else if (prefix === 'x' && float) {
    fail("hexadecimal mantissa requires a 'p' exponent");
  }
  if (!float && invalid !== undefined) fail(`invalid digit '${invalid}' in ${literalName(prefix)}`);
  if (separatorSeen && !separatorsValid(input.slice(start, i))) {
    fail("'_' must separate successive digits");
  }
  return error;
}

function isDigitOf(c: string, base: 10 | 16): boolean {
  return base === 10 ? c >= '0' && c <= '9' : /^[0-9a-fA-F]$/.test(c);
}

function literalName(prefix: string): string {
  if (prefix === 'x') return 'hexadecimal literal';
  if (prefix === 'o' || prefix === '0') return 'octal literal';
  if (prefix === 'b') return 'binary literal';
  return 'decimal literal';
}

/** Go's `invalidSep`: every `_` must sit between digits (or after a base prefix). */
function separatorsValid(text: string): boolean {
  let x1 = ' '; // prefix char, we only care if it's 'x'
  let d = '.'; // digit, one of '_', '0' (a digit), or '.' (anything else)
  let i = 0;
  if (text.length >= 2 && text[0] === '0') {
    x1 = text[1].toLowerCase();
    if (x1 === 'x' || x1 === 'o' || x1 === 'b') {
      d = '0';
      i = 2;
    }
  }
  for (; i < text.length; i++) {
    const p = d;
    d = text[i];
    if (d === '_') {
      if (p !== '0') return false;
    } else if ((d >= '0' && d <= '9') || (x1 === 'x' && /[a-fA-F]/.test(d))) {
      d = '0';
    } else {
      if (p === '_') return false;
      d = '.';
    }
  }
  return d !== '_';
}
