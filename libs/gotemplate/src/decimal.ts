/**
 * Just enough of shopspring/decimal for sprig's addf/subf/mulf/divf: operands are converted
 * with NewFromFloat (shortest decimal), combined exactly, and converted back to float64.
 */
interface Dec {
  c: bigint; // coefficient
  e: number; // exponent: value = c * 10^e
}

export function fromFloat(f: number): Dec {
  if (f === 0 || !Number.isFinite(f)) return { c: 0n, e: 0 };
  const [mant, exp] = f.toExponential().split('e');
  const digits = mant.replace('.', '').replace('-', '');
  const frac = mant.includes('.') ? mant.split('.')[1].length : 0;
  const c = BigInt(digits) * (f < 0 ? -1n : 1n);
  return { c, e: Number(exp) - frac };
}

function align(a: Dec, b: Dec): [bigint, bigint, number] {
  const e = Math.min(a.e, b.e);
  return [a.c * 10n ** BigInt(a.e - e), b.c * 10n ** BigInt(b.e - e), e];
}

export function add(a: Dec, b: Dec): Dec {
  const [x, y, e] = align(a, b);
  return { c: x + y, e };
}
export function sub(a: Dec, b: Dec): Dec {
  const [x, y, e] = align(a, b);
  return { c: x - y, e };
}
export function mul(a: Dec, b: Dec): Dec {
  return { c: a.c * b.c, e: a.e + b.e };
}

/** Division rounded half away from zero to 16 decimal places (decimal.DivisionPrecision). */
export function div(a: Dec, b: Dec): Dec {
  if (b.c === 0n) throw new Error('decimal division by 0');
  const prec = 16;
  // a/b = (a.c / b.c) * 10^(a.e - b.e); scale so the quotient has `prec` fractional digits.
  const shift = prec + a.e - b.e;
  let num = a.c;
  let den = b.c;
  if (shift >= 0) num *= 10n ** BigInt(shift);
  else den *= 10n ** BigInt(-shift);
  const neg = num < 0n !== den < 0n;
  const an = num < 0n ? -num : num;
  const ad = den < 0n ? -den : den;
  let q = an / ad;
  if ((an % ad) * 2n >= ad) q += 1n;
  return { c: neg ? -q : q, e: -prec };
}

export function toFloat(d: Dec): number {
  return Number(`${d.c}e${d.e}`);
}
