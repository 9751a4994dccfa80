/** Lexer for Go text/template syntax (delimiters `{{ }}`), following Go's text/template/parse. */

export type TokenType =
  | 'text'
  | 'leftDelim'
  | 'rightDelim'
  | 'comment'
  | 'space'
  | 'identifier'
  | 'keyword'
  | 'dot'
  | 'nil'
  | 'bool'
  | 'field'
  | 'variable'
  | 'number'
  | 'char'
  | 'string'
  | 'rawString'
  | 'charConstant'
  | 'pipe'
  | 'leftParen'
  | 'rightParen'
  | 'declare'
  | 'assign'
  | 'eof'
  | 'error';

export interface Token {
  type: TokenType;
  val: string;
  pos: number; // index into the template text
  line: number;
}

const KEYWORDS = new Set([
  'block',
  'break',
  'continue',
  'define',
  'else',
  'end',
  'if',
  'range',
  'template',
  'with',
]);

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

function isAlphaNumeric(c: string): boolean {
  return c === '_' || /^[\p{L}\p{Nd}]$/u.test(c);
}

/** Go's %#U: `U+0040 '@'`. */
export function formatRune(c: string): string {
  const cp = c.codePointAt(0)!;
  return (
    'U+' + cp.toString(16).toUpperCase().padStart(4, '0') + (/\P{C}/u.test(c) ? ` '${c}'` : '')
  );
}

/** Tokenizes the whole template. The last token is `eof` or `error`. */
export function lex(input: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  let start = 0;
  let line = 1;
  let startLine = 1;
  let parenDepth = 0;
  let trimNextText = false;

  const emit = (type: TokenType, val = input.slice(start, pos)): void => {
    tokens.push({ type, val, pos: start, line: startLine });
    for (let i = start; i < pos; i++) if (input.charCodeAt(i) === 10) line++;
    start = pos;
    startLine = line;
  };
  const ignore = (): void => {
    for (let i = start; i < pos; i++) if (input.charCodeAt(i) === 10) line++;
    start = pos;
    startLine = line;
  };
  const fail = (msg: string): Token[] => {
    tokens.push({ type: 'error', val: msg, pos: start, line: startLine });
    return tokens;
  };
  const atRightDelim = (): { at: boolean; trim: boolean } => {
    if (isSpace(input[pos] ?? '') && input[pos + 1] === '-' && input.startsWith('}}', pos + 2)) {
      return { at: true, trim: true };
    }
    return { at: input.startsWith('}}', pos), trim: false };
  };
  const atTerminator = (): boolean => {
    const c = input[pos];
    if (c === undefined || isSpace(c) || '.,|:()'.includes(c)) return true;
    return input.startsWith('}}', pos);
  };
  const trimLeadingSpace = (): void => {
    while (pos < input.length && isSpace(input[pos])) pos++;
    ignore();
  };

  for (;;) {
    // Text up to the next action.
    if (trimNextText) {
      trimLeadingSpace();
      trimNextText = false;
    }
    const x = input.indexOf('{{', pos);
    const textEnd = x < 0 ? input.length : x;
    let trimmedEnd = textEnd;
    const leftTrim = x >= 0 && input[x + 2] === '-' && isSpace(input[x + 3] ?? '');
    if (leftTrim) while (trimmedEnd > start && isSpace(input[trimmedEnd - 1])) trimmedEnd--;
    pos = trimmedEnd;
    if (pos > start) emit('text');
    pos = textEnd;
    ignore();
    if (x < 0) {
      emit('eof', '');
      return tokens;
    }
    // Left delimiter, with optional trim marker.
    pos += leftTrim ? 4 : 2;
    const afterMarker = pos;
    if (input.startsWith('/*', afterMarker)) {
      ignore();
      const end = input.indexOf('*/', pos + 2);
      if (end < 0) return fail('unclosed comment');
      pos = end + 2;
      const r = atRightDelim();
      if (!r.at) return fail('comment ends before closing delimiter');
      emit('comment');
      pos += r.trim ? 4 : 2;
      ignore();
      trimNextText = r.trim;
      continue;
    }
    tokens.push({ type: 'leftDelim', val: '{{', pos: start, line: startLine });
    ignore();
    // Inside the action.
    for (;;) {
      const r = atRightDelim();
      if (r.at) {
        if (parenDepth > 0) return fail('unclosed left paren');
        if (r.trim) {
          pos += 1;
          ignore();
          pos += 3;
        } else pos += 2;
        emit('rightDelim', '}}');
        trimNextText = r.trim;
        break;
      }
      const c = input[pos];
      if (c === undefined) return fail('unclosed action');
      if (isSpace(c)) {
        // A space run stops before a trim-marked closing delimiter.
        while (pos < input.length && isSpace(input[pos])) {
          if (input[pos + 1] === '-' && input.startsWith('}}', pos + 2)) break;
          pos++;
        }
        if (pos === start) pos++;
        emit('space');
        continue;
      }
      pos++;
      if (c === '=') emit('assign');
      else if (c === ':') {
        if (input[pos] !== '=') return fail('expected :=');
        pos++;
        emit('declare');
      } else if (c === '|') emit('pipe');
      else if (c === '"') {
        for (;;) {
          const d = input[pos++];
          if (d === '\\' && pos < input.length && input[pos] !== '\n') pos++;
          else if (d === undefined || d === '\n') return fail('unterminated quoted string');
          else if (d === '"') break;
        }
        emit('string');
      } else if (c === '`') {
        const end = input.indexOf('`', pos);
        if (end < 0) return fail('unterminated raw quoted string');
        pos = end + 1;
        emit('rawString');
      } else if (c === '$' || c === '.') {
        if (c === '.' && /[0-9]/.test(input[pos] ?? '')) {
          pos--;
          if (!lexNumber()) return fail(`bad number syntax: "${input.slice(start, pos)}"`);
          continue;
        }
        if (atTerminator()) {
          emit(c === '$' ? 'variable' : 'dot');
          continue;
        }
        if (!lexAlphaNumeric()) {
          return fail(`bad character ${formatRune(String.fromCodePoint(input.codePointAt(pos)!))}`);
        }
        emit(c === '$' ? 'variable' : 'field');
      } else if (c === "'") {
        for (;;) {
          const d = input[pos++];
          if (d === '\\' && pos < input.length && input[pos] !== '\n') pos++;
          else if (d === undefined || d === '\n') return fail('unterminated character constant');
          else if (d === "'") break;
        }
        emit('charConstant');
      } else if (c === '+' || c === '-' || (c >= '0' && c <= '9')) {
        pos--;
        if (!lexNumber()) return fail(`bad number syntax: "${input.slice(start, pos)}"`);
      } else if (isAlphaNumeric(String.fromCodePoint(input.codePointAt(pos - 1)!))) {
        if (input.codePointAt(pos - 1)! > 0xffff) pos++;
        if (!lexAlphaNumeric()) {
          return fail(`bad character ${formatRune(String.fromCodePoint(input.codePointAt(pos)!))}`);
        }
        const word = input.slice(start, pos);
        if (KEYWORDS.has(word)) emit('keyword');
        else if (word === 'nil') emit('nil');
        else if (word === 'true' || word === 'false') emit('bool');
        else emit('identifier');
      } else if (c === '(') {
        parenDepth++;
        emit('leftParen');
      } else if (c === ')') {
        parenDepth--;
        if (parenDepth < 0) return fail('unexpected right paren');
        emit('rightParen');
      } else {
        const cp = input.codePointAt(pos - 1)!;
        if (cp < 0x80 && cp >= 0x20 && cp !== 0x7f) emit('char');
        else
          return fail(`unrecognized character in action: ${formatRune(String.fromCodePoint(cp))}`);
      }
    }
  }

  /**
   * A number as Go's lexer reads it (the parser validates it). A sign right after a number
   * starts the imaginary part of a complex constant (`1+2i`), so `2006-01` is one bad number.
   */
  /** Moves past letters and digits; false unless a terminator follows them. */
  function lexAlphaNumeric(): boolean {
    while (pos < input.length && isAlphaNumeric(String.fromCodePoint(input.codePointAt(pos)!))) {
      pos += input.codePointAt(pos)! > 0xffff ? 2 : 1;
    }
    return atTerminator();
  }

  function lexNumber(): boolean {
    if (!scanNumber()) return false;
    if (input[pos] === '+' || input[pos] === '-') {
      if (!scanNumber() || input[pos - 1] !== 'i') return false;
    }
    emit('number');
    return true;
  }

  function scanNumber(): boolean {
    if (input[pos] === '+' || input[pos] === '-') pos++;
    let digits = '0123456789_';
    if (input[pos] === '0' && /[xXoObB]/.test(input[pos + 1] ?? '')) {
      const p = input[pos + 1].toLowerCase();
      pos += 2;
      digits = p === 'x' ? '0123456789abcdefABCDEF_' : p === 'o' ? '01234567_' : '01_';
    }
    const run = (set: string): void => {
      while (pos < input.length && set.includes(input[pos])) pos++;
    };
    run(digits);
    if (input[pos] === '.') {
      pos++;
      run(digits);
    }
    if (digits.length === 11 && /[eE]/.test(input[pos] ?? '')) {
      pos++;
      if (input[pos] === '+' || input[pos] === '-') pos++;
      run('0123456789_');
    }
    if (digits.length === 23 && /[pP]/.test(input[pos] ?? '')) {
      pos++;
      if (input[pos] === '+' || input[pos] === '-') pos++;
      run('0123456789_');
    }
    if (input[pos] === 'i') pos++;
    if (pos < input.length && isAlphaNumeric(input[pos])) {
      pos++;
      return false;
    }
    return true;
  }
}
