import { formatFloat } from './go-float';
import { namedIntString } from './go-duration';
import { GoTime } from './go-time';
import { compareGoStrings, intOf, isInt, LabelMap, SizedInt, typeName, type Value } from './values';

/** Go's %v of a value (fmt.Sprint of one operand). */
export function formatValue(v: Value): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'bigint':
      return v.toString();
    case 'number':
      return formatFloat(v, 'g', -1);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'undefined':
      return '<nil>';
  }
  if (v === null) return '<nil>';
  if (v instanceof SizedInt) return namedIntString(v) ?? v.v.toString();
  if (v instanceof GoTime) return v.toString();
  if (Array.isArray(v)) return '[' + v.map(formatValue).join(' ') + ']';
  return formatMap(v, formatValue);
}

function formatMap(v: Map<string, Value> | LabelMap, f: (v: Value) => string): string {
  const keys = v instanceof LabelMap ? v.keys() : [...v.keys()].sort(compareGoStrings);
  const get = (k: string): Value => (v instanceof LabelMap ? v.get(k) : v.get(k));
  return 'map[' + keys.map((k) => f(k) + ':' + f(get(k))).join(' ') + ']';
}

/** fmt.Sprint: spaces between operands when neither side is a string. */
export function sprint(args: readonly Value[]): string {
  let out = '';
  for (let i = 0; i < args.length; i++) {
    if (i > 0 && typeof args[i] !== 'string' && typeof args[i - 1] !== 'string') out += ' ';
    out += formatValue(args[i]);
  }
  return out;
}

/** fmt.Sprintln: always spaces between operands, newline at the end. */
export function sprintln(args: readonly Value[]): string {
  return args.map(formatValue).join(' ') + '\n';
}

const UNPRINTABLE = /[^\p{L}\p{M}\p{N}\p{P}\p{S} ]/u;

/** strconv.Quote (or QuoteToASCII when `ascii`). */
export function goQuote(s: string, ascii = false, quote = '"'): string {
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === quote || ch === '\\') out += '\\' + ch;
    else if (c < 0x80 ? c >= 0x20 && c < 0x7f : !ascii && !UNPRINTABLE.test(ch)) out += ch;
    else if (ch === '\x07') out += '\\a';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\v') out += '\\v';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else if (c >= 0xd800 && c <= 0xdfff) out += '\\ufffd';
    else if (c < 0x10000) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += '\\U' + c.toString(16).padStart(8, '0');
  }
  return out + quote;
}

/** Go's fmt refuses widths and precisions beyond a million (BADWIDTH, BADPREC, NOVERB). */
function tooLarge(x: number | bigint): boolean {
  return x > 1_000_000 || x < -1_000_000;
}

interface Flags {
  plus: boolean;
  minus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  width: number; // -1 when absent
  prec: number; // -1 when absent
}

function pad(s: string, f: Flags, zeroOk = true): string {
  const len = [...s].length;
  if (f.width < 0 || len >= f.width) return s;
  const n = f.width - len;
  if (f.minus) return s + ' '.repeat(n);
  if (f.zero && zeroOk) {
    const sign = s[0] === '-' || s[0] === '+' || s[0] === ' ' ? s[0] : '';
    return sign + '0'.repeat(n) + s.slice(sign.length);
  }
  return ' '.repeat(n) + s;
}

function fmtInteger(v: bigint, verb: string, f: Flags, unsigned: boolean): string {
  const neg = v < 0n;
  let abs = neg ? -v : v;
  if (unsigned && neg) abs = BigInt.asUintN(64, v);
  let digits: string;
  let prefix = '';
  switch (verb) {
    case 'd':
    case 'v':
      digits = abs.toString();
      break;
    case 'b':
      digits = abs.toString(2);
      if (f.sharp) prefix = '0b';
      break;
    case 'o':
    case 'O':
      digits = abs.toString(8);
      if (verb === 'O') prefix = '0o';
      else if (f.sharp && digits !== '0') prefix = '0';
      break;
    case 'x':
      digits = abs.toString(16);
      if (f.sharp) prefix = '0x';
      break;
    case 'X':
      digits = abs.toString(16).toUpperCase();
      if (f.sharp) prefix = '0X';
      break;
    default:
      return badVerb(verb, v, f);
  }
  if (f.prec >= 0) {
    if (f.prec === 0 && abs === 0n) digits = '';
    digits = digits.padStart(f.prec, '0');
  } else if (f.zero && !f.minus && f.width > 0) {
    const signLen = neg || f.plus || f.space ? 1 : 0;
    digits = digits.padStart(f.width - signLen - prefix.length, '0');
  }
  const sign = neg && !unsigned ? '-' : f.plus ? '+' : f.space ? ' ' : '';
  return pad(sign + prefix + digits, f, false);
}

function fmtFloatVerb(v: number, verb: string, f: Flags): string {
  let prec = f.prec;
  let fmt = verb;
  if (verb === 'v') {
    fmt = 'g';
  } else if (verb === 'F') fmt = 'f';
  if (prec < 0 && (fmt === 'e' || fmt === 'E' || fmt === 'f')) prec = 6;
  let s = formatFloat(v, fmt, prec);
  if (s === '+Inf' || s === '-Inf' || s === 'NaN') {
    if (s === '+Inf' && !f.plus) s = f.space ? ' Inf' : 'Inf';
    if (s === 'NaN' && (f.plus || f.space)) s = (f.plus ? '+' : ' ') + s;
    return pad(s, f, false);
  }
  if (f.sharp && (fmt === 'g' || fmt === 'G') && !s.includes('.')) {
    // %#g keeps a decimal point (and trailing zeros).
    const ePos = s.search(/[eE]/);
    s = ePos < 0 ? s + '.' : s.slice(0, ePos) + '.' + s.slice(ePos);
  }
  if (s[0] !== '-') s = (f.plus ? '+' : f.space ? ' ' : '') + s;
  return pad(s, f, true);
}

/**
 * Go's `%!verb(type=value)` for a verb the value does not take: fmt prints the value as `%v`
 * with the directive's flags, width and precision (so `%05d` of "7" gives `%!d(string=00007)`),
 * and without calling its String method.
 */
function badVerb(verb: string, v: Value, f: Flags): string {
  if (v === null || v === undefined) return `%!${verb}(<nil>)`;
  return `%!${verb}(${typeName(v)}=${fmtOne(v instanceof SizedInt ? intOf(v) : v, 'v', f)})`;
}

function fmtString(s: string, verb: string, f: Flags): string {
  switch (verb) {
    case 's':
    case 'v':
      if (f.prec >= 0) s = [...s].slice(0, f.prec).join('');
      return pad(s, f);
    case 'q':
      return pad(f.sharp && !s.includes('`') ? '`' + s + '`' : goQuote(s, f.plus), f);
    case 'x':
    case 'X': {
      let bytes = Buffer.from(s, 'utf8');
      if (f.prec >= 0) bytes = bytes.subarray(0, f.prec);
      let hex = '';
      for (let i = 0; i < bytes.length; i++) {
        if (f.space && i > 0) hex += ' ';
        if (f.sharp && (f.space || i === 0)) hex += verb === 'x' ? '0x' : '0X';
        const h = bytes[i].toString(16).padStart(2, '0');
        hex += verb === 'X' ? h.toUpperCase() : h;
      }
      return pad(hex, f);
    }
    default:
      return badVerb(verb, s, f);
  }
}

function fmtOne(v: Value, verb: string, f: Flags): string {
  if (v === null || v === undefined) {
    return verb === 'v' ? pad('<nil>', f) : `%!${verb}(<nil>)`;
  }
  if (typeof v === 'boolean') {
    if (verb === 't' || verb === 'v') return pad(v ? 'true' : 'false', f);
    return badVerb(verb, v, f);
  }
  const stringer = v instanceof SizedInt ? namedIntString(v) : undefined;
  if (stringer !== undefined && 'vsxXq'.includes(verb)) {
    // fmt calls String() on a Stringer for these verbs.
    return fmtString(stringer, verb === 'v' ? 's' : verb, f);
  }
  if (isInt(v)) {
    const n = intOf(v);
    const unsigned = v instanceof SizedInt && v.type === 'uint8';
    if (verb === 'c')
      return pad(String.fromCodePoint(Number(n) >= 0 && n <= 0x10ffffn ? Number(n) : 0xfffd), f);
    if (verb === 'q')
      return pad(
        goQuote(
          String.fromCodePoint(Number(n) >= 0 && n <= 0x10ffffn ? Number(n) : 0xfffd),
          f.plus,
          "'",
        ),
        f,
      );
    if (verb === 'U') {
      const hex = n.toString(16).toUpperCase().padStart(4, '0');
      return pad('U+' + hex, f);
    }
    if (!'dvboOxX'.includes(verb)) return badVerb(verb, v, f);
    return fmtInteger(n, verb, f, unsigned);
  }
  if (typeof v === 'number') {
    if ('eEfFgGv'.includes(verb)) return fmtFloatVerb(v, verb, f);
    return badVerb(verb, v, f);
  }
  if (typeof v === 'string') return fmtString(v, verb, f);
  if (v instanceof GoTime) {
    if ('vsxXq'.includes(verb)) return fmtString(v.toString(), verb === 'v' ? 's' : verb, f);
    return badVerb(verb, v, f);
  }
  if (Array.isArray(v)) return '[' + v.map((e) => fmtOne(e, verb, f)).join(' ') + ']';
  return formatMap(v, (e) => fmtOne(e, verb, f));
}

const VERBS = 'vTtbcdoOqxXUeEfFgGsp';

/** Go's fmt.Sprintf for the verbs templates use, with Go's error annotations. */
export function sprintf(format: string, args: readonly Value[]): string {
  let out = '';
  let argi = 0;
  let reordered = false;
  const n = format.length;
  let i = 0;
  while (i < n) {
    const pct = format.indexOf('%', i);
    if (pct < 0) {
      out += format.slice(i);
      break;
    }
    out += format.slice(i, pct);
    i = pct + 1;
    const f: Flags = {
      plus: false,
      minus: false,
      sharp: false,
      space: false,
      zero: false,
      width: -1,
      prec: -1,
    };
    for (; i < n; i++) {
      const c = format[i];
      if (c === '+') f.plus = true;
      else if (c === '-') f.minus = true;
      else if (c === '#') f.sharp = true;
      else if (c === ' ') f.space = true;
      else if (c === '0') f.zero = true;
      else break;
    }
    const readNum = (): number => {
      let num = -1;
      while (i < n && format[i] >= '0' && format[i] <= '9') {
        if (tooLarge(num)) {
          // Go's parsenum: a crazy long number swallows the rest of the format (%!(NOVERB)).
          i = n;
          return -1;
        }
        num = (num < 0 ? 0 : num * 10) + (format.charCodeAt(i) - 48);
        i++;
      }
      return num;
    };
    const readIndex = (): void => {
      const m = /^\[(\d+)\]/.exec(format.slice(i));
      if (m) {
        argi = Number(m[1]) - 1;
        reordered = true;
        i += m[0].length;
      }
    };
    readIndex();
    if (format[i] === '*') {
      i++;
      const a = args[argi++];
      if (isInt(a) && !tooLarge(intOf(a))) {
        f.width = Number(intOf(a));
        if (f.width < 0) {
          f.minus = true;
          f.width = -f.width;
        }
      } else out += '%!(BADWIDTH)';
    } else f.width = readNum();
    if (format[i] === '.') {
      i++;
      readIndex();
      if (format[i] === '*') {
        i++;
        const a = args[argi++];
        if (isInt(a) && intOf(a) >= 0n && !tooLarge(intOf(a))) f.prec = Number(intOf(a));
        else out += '%!(BADPREC)';
      } else f.prec = Math.max(readNum(), 0);
    }
    readIndex();
    if (i >= n) {
      out += '%!(NOVERB)';
      break;
    }
    const verb = String.fromCodePoint(format.codePointAt(i)!);
    i += verb.length;
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (argi >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    const arg = args[argi++];
    if (verb === 'T') out += pad(typeName(arg), f);
    else if (!VERBS.includes(verb) || verb === 'p') out += badVerb(verb, arg, f);
    else out += fmtOne(arg, verb, f);
  }
  if (!reordered && argi < args.length) {
    out +=
      '%!(EXTRA ' +
      args
        .slice(argi)
        .map((a) => `${typeName(a)}=${formatValue(a)}`)
        .join(', ') +
      ')';
  }
  return out;
}
