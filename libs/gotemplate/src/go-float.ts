/** Go's strconv float formatting ('e', 'f', 'g' with Go's rounding and exponent rules). */

interface Digits {
  d: string; // significant decimal digits, no leading zeros ("" for zero)
  dp: number; // decimal point position: value = 0.d * 10^dp
}

/** Shortest digits that round-trip (what Go and JavaScript both produce). */
function shortest(v: number): Digits {
  if (v === 0) return { d: '', dp: 0 };
  const [mant, exp] = Math.abs(v).toExponential().split('e');
  const d = mant.replace('.', '');
  return { d, dp: Number(exp) + 1 };
}

/** The exact decimal expansion of a double. */
function exact(v: number): Digits {
  if (v === 0) return { d: '', dp: 0 };
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, Math.abs(v));
  const bits = buf.getBigUint64(0);
  const e = Number((bits >> 52n) & 0x7ffn);
  let m = bits & ((1n << 52n) - 1n);
  let exp: number;
  if (e === 0) exp = -1074;
  else {
    m |= 1n << 52n;
    exp = e - 1075;
  }
  let digits: string;
  let dp: number;
  if (exp >= 0) {
    digits = (m << BigInt(exp)).toString();
    dp = digits.length;
  } else {
    digits = (m * 5n ** BigInt(-exp)).toString();
    dp = digits.length + exp;
  }
  const trimmed = digits.replace(/0+$/, '');
  return { d: trimmed, dp };
}

/** Rounds exact digits to `nd` significant digits, half to even (Go's decimal.Round). */
function roundDigits(x: Digits, nd: number): Digits {
  if (nd < 0) return { d: '', dp: x.dp };
  if (nd >= x.d.length) return x;
  const next = x.d.charCodeAt(nd) - 48;
  let up = next > 5;
  if (next === 5) {
    const rest = x.d.length > nd + 1; // digits are trimmed, so any rest is non-zero
    up = rest || (nd > 0 && (x.d.charCodeAt(nd - 1) - 48) % 2 === 1);
  }
  let d = x.d.slice(0, nd);
  let dp = x.dp;
  if (up) {
    let i = d.length - 1;
    while (i >= 0 && d[i] === '9') i--;
    if (i < 0) {
      d = '1';
      dp++;
    } else {
      d = d.slice(0, i) + String.fromCharCode(d.charCodeAt(i) + 1);
    }
  }
  return { d: d.replace(/0+$/, ''), dp };
}

function parseDigits(text: string): Digits {
  const [mant, exp = '0'] = text.split('e');
  const [int, frac = ''] = mant.split('.');
  const all = int + frac;
  const lead = all.length - all.replace(/^0+/, '').length;
  const d = all.slice(lead).replace(/0+$/, '');
  return { d, dp: d === '' ? 0 : int.length - lead + Number(exp) };
}

/**
 * JavaScript rounds half up where Go rounds half to even; the two differ only on exact ties.
 * Returns JavaScript's rounding unless the value might be such a tie (then the caller uses the
 * exact expansion).
 */
function quickRound(abs: number, fmt: string, prec: number): Digits | undefined {
  if (abs === 0) return { d: '', dp: 0 };
  if (fmt === 'f') {
    if (abs >= 1e21 || prec > 100) return undefined;
    const more = abs.toFixed(Math.min(prec + 1, 100));
    if (more.endsWith('5') && Number(more) === abs) return undefined;
    return parseDigits(abs.toFixed(prec));
  }
  const nd = fmt === 'e' ? prec + 1 : prec;
  if (nd > 100) return undefined;
  const more = abs.toExponential(Math.min(nd, 100));
  if (more.split('e')[0].endsWith('5') && Number(more) === abs) return undefined;
  return parseDigits(abs.toExponential(nd - 1));
}

/** Digits `from` .. `from + n - 1` of x, '0' outside its digits (in slices, not per digit). */
function digitRun(x: Digits, from: number, n: number): string {
  if (n <= 0) return '';
  const lead = from < 0 ? Math.min(-from, n) : 0;
  const start = from + lead;
  const taken = x.d.slice(Math.min(start, x.d.length), Math.min(start + n - lead, x.d.length));
  return '0'.repeat(lead) + taken + '0'.repeat(n - lead - taken.length);
}

function fmtE(x: Digits, prec: number, e: string): string {
  let s = x.d === '' ? '0' : x.d[0];
  if (prec > 0) s += '.' + digitRun(x, 1, prec);
  const exp = x.d === '' ? 0 : x.dp - 1;
  const abs = Math.abs(exp);
  return s + e + (exp < 0 ? '-' : '+') + (abs < 10 ? '0' : '') + abs;
}

function fmtF(x: Digits, prec: number): string {
  const s = x.dp > 0 ? digitRun(x, 0, x.dp) : '0';
  return prec > 0 ? s + '.' + digitRun(x, x.dp, prec) : s;
}

/**
 * strconv.FormatFloat(v, fmt, prec, 64) for fmt in e E f F g G; prec -1 means shortest.
 * Returns the unsigned text; the caller adds the sign (so "-0" is handled by the caller too).
 */
export function formatFloatAbs(v: number, fmt: string, prec: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return 'Inf';
  const abs = Math.abs(v);
  const isShortest = prec < 0;
  let x: Digits;
  const lower = fmt.toLowerCase();
  if (isShortest) {
    x = shortest(abs);
    if (lower === 'e') prec = Math.max(x.d.length - 1, 0);
    else if (lower === 'f') prec = Math.max(x.d.length - x.dp, 0);
    else prec = x.d.length;
  } else {
    if (lower === 'g' && prec === 0) prec = 1;
    const quick = quickRound(abs, lower, prec);
    if (quick) x = quick;
    else {
      const ex = exact(abs);
      if (lower === 'e') x = roundDigits(ex, prec + 1);
      else if (lower === 'f') x = roundDigits(ex, ex.dp + prec);
      else x = roundDigits(ex, prec);
    }
  }
  const e = fmt === 'E' || fmt === 'G' ? 'E' : 'e';
  if (lower === 'e') return fmtE(x, prec, e);
  if (lower === 'f') return fmtF(x, prec);
  // %g
  let eprec = prec;
  if (eprec > x.d.length && x.d.length >= x.dp) eprec = x.d.length;
  if (isShortest) eprec = 6;
  const exp = x.dp - 1;
  if (x.d !== '' && (exp < -4 || exp >= eprec)) {
    if (prec > x.d.length) prec = x.d.length;
    return fmtE(x, prec - 1, e);
  }
  if (prec > x.dp) prec = x.d.length;
  return fmtF(x, Math.max(prec - x.dp, 0));
}

/** strconv.FormatFloat(v, fmt, prec, 64) with sign. */
export function formatFloat(v: number, fmt: string, prec: number): string {
  const s = formatFloatAbs(v, fmt, prec);
  if (s === 'NaN') return s;
  if (s === 'Inf') return v < 0 ? '-Inf' : '+Inf';
  return v < 0 || Object.is(v, -0) ? '-' + s : s;
}
