import { FuncError } from './values';

const UNRESERVED = /[A-Za-z0-9\-_.~]/;

/** Go's url.QueryEscape. */
export function queryEscape(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    if (b < 0x80 && UNRESERVED.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

const HEX = /^[0-9a-fA-F]{2}$/;

/** Go's url.QueryUnescape; throws FuncError with Go's message on a bad escape. */
export function queryUnescape(s: string): string {
  if (!s.includes('%') && !s.includes('+')) return s;
  const bytes: number[] = [];
  const src = Buffer.from(s, 'utf8');
  for (let i = 0; i < src.length; i++) {
    const b = src[i];
    if (b === 0x25) {
      const h = src.subarray(i + 1, i + 3).toString('latin1');
      if (!HEX.test(h)) {
        const bad = src.subarray(i, Math.min(i + 3, src.length)).toString('utf8');
        throw new FuncError(`invalid URL escape "${bad}"`);
      }
      bytes.push(parseInt(h, 16));
      i += 2;
    } else if (b === 0x2b) bytes.push(0x20);
    else bytes.push(b);
  }
  return Buffer.from(bytes).toString('utf8');
}
