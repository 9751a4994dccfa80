/**
 * `ip("...")` matching as Loki's `pkg/logql/log/ip.go` does: the pattern is one address, a
 * CIDR prefix or an inclusive range `a-b`; a line (or label value) matches when any IP-looking
 * token in it is a valid address inside the pattern. Tokens are consumed whole, so
 * `93.180.71.3` is never read as `3.180.71.3`.
 */
import { StageBuildError } from './errors';

/** An address as bytes: 4 for IPv4, 16 for IPv6. IPv4 and IPv6 never match each other. */
export type IpBytes = Uint8Array;

export function parseIPv4(s: string): IpBytes | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const p = parts[i];
    if (p.length === 0 || p.length > 3 || !/^[0-9]+$/.test(p)) return null;
    if (p.length > 1 && p[0] === '0') return null; // Go's netip rejects leading zeros
    const v = Number(p);
    if (v > 255) return null;
    out[i] = v;
  }
  return out;
}

export function parseIPv6(s: string): IpBytes | null {
  if (s.length < 2 || s.length > 45) return null;
  let tail: IpBytes | null = null;
  let text = s;
  const lastColon = s.lastIndexOf(':');
  if (s.indexOf('.', lastColon) >= 0) {
    tail = parseIPv4(s.slice(lastColon + 1));
    if (tail === null) return null;
    text = s.slice(0, lastColon + 1) + '0:0';
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string): number[] | null => {
    if (part === '') return [];
    const out: number[] = [];
    for (const g of part.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  if (head === null || rest === null) return null;
  const total = head.length + rest.length;
  if (halves.length === 2 ? total > 7 : total !== 8) return null;
  const words = [...head, ...new Array<number>(8 - total).fill(0), ...rest];
  const out = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    out[2 * i] = words[i] >> 8;
    out[2 * i + 1] = words[i] & 0xff;
  }
  if (tail !== null) out.set(tail, 12);
  return out;
}

export function parseIp(s: string): IpBytes | null {
  return s.includes(':') ? parseIPv6(s) : parseIPv4(s);
}

function compare(a: IpBytes, b: IpBytes): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** A parsed `ip("...")` pattern. */
export class IpMatcher {
  private readonly contains: (ip: IpBytes) => boolean;

  constructor(readonly pattern: string) {
    const fn = IpMatcher.build(pattern.trim());
    if (fn === null) throw new StageBuildError(`ip: invalid pattern: ${JSON.stringify(pattern)}`);
    this.contains = fn;
  }

  private static build(p: string): ((ip: IpBytes) => boolean) | null {
    const addr = parseIp(p);
    if (addr !== null) return (ip) => ip.length === addr.length && compare(ip, addr) === 0;
    const slash = p.indexOf('/');
    if (slash >= 0) {
      const base = parseIp(p.slice(0, slash));
      const bitsText = p.slice(slash + 1);
      if (base === null || !/^(0|[1-9][0-9]{0,2})$/.test(bitsText)) return null;
      const bits = Number(bitsText);
      if (bits > base.length * 8) return null;
      return (ip) => {
        if (ip.length !== base.length) return false;
        let left = bits;
        for (let i = 0; left > 0; i++, left -= 8) {
          const mask = left >= 8 ? 0xff : (0xff << (8 - left)) & 0xff;
          if ((ip[i] & mask) !== (base[i] & mask)) return false;
        }
        return true;
      };
    }
    const dash = p.indexOf('-');
    if (dash >= 0) {
      const from = parseIp(p.slice(0, dash));
      const to = parseIp(p.slice(dash + 1));
      if (from === null || to === null || from.length !== to.length) return null;
      if (compare(from, to) > 0) return null;
      return (ip) => ip.length === from.length && compare(ip, from) >= 0 && compare(ip, to) <= 0;
    }
    return null;
  }

  /**
   * Whether an IP-looking token of `input` is an address inside the pattern. As Loki does, a
   * position that looks like the start of an IPv4 (`d.`, `dd.`, `ddd.`) or IPv6 (hex digits then
   * `:`, or `::`) address takes the longest run of address characters; a run that is no match
   * is skipped whole, so `93.180.71.3` is never read as `3.180.71.3`.
   */
  matchesAny(input: Buffer): boolean {
    const n = input.length;
    for (let i = 0; i < n; i++) {
      let v6 = false;
      if (ipv4Hint(input, i)) v6 = false;
      else if (ipv6Hint(input, i)) v6 = true;
      else continue;
      let end = i;
      while (end < n && (v6 ? isIpv6Char(input[end]) : isIpv4Char(input[end]))) end++;
      if (end - i <= 45) {
        const ip = parseIp(input.toString('latin1', i, end));
        if (ip !== null && this.contains(ip)) return true;
      }
      i = end - 1;
    }
    return false;
  }

  matchesString(value: string): boolean {
    return this.matchesAny(Buffer.from(value));
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function isIpv4Char(c: number): boolean {
  return isDigit(c) || c === 0x2e;
}

function isIpv6Char(c: number): boolean {
  return isHex(c) || c === 0x3a || c === 0x2e;
}

/** `d.`, `dd.` or `ddd.` at position i. */
function ipv4Hint(b: Buffer, i: number): boolean {
  for (let k = 0; k < 4 && i + k < b.length; k++) {
    const c = b[i + k];
    if (c === 0x2e) return k > 0;
    if (!isDigit(c)) return false;
  }
  return false;
}

/** One to four hex digits then `:`, or `::`, at position i. */
function ipv6Hint(b: Buffer, i: number): boolean {
  if (b[i] === 0x3a) return b[i + 1] === 0x3a;
  for (let k = 0; k < 5 && i + k < b.length; k++) {
    const c = b[i + k];
    if (c === 0x3a) return k > 0;
    if (!isHex(c)) return false;
  }
  return false;
}
