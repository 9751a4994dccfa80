import { goParseFloat as parseGoFloat, strconvParseIntBase0 as parseGoInt } from '@logsvc/gocompat';
import { GoTime } from './go-time';
import { intOf, isInt, type Value } from './values';

/** Strips a trailing ".0…" so "3.00" parses as an integer (spf13/cast's trimZeroDecimal). */
function trimZeroDecimal(s: string): string {
  let foundZero = false;
  for (let i = s.length; i > 0; i--) {
    const c = s[i - 1];
    if (c === '.') return foundZero ? s.slice(0, i - 1) : s;
    if (c === '0') foundZero = true;
    else return s;
  }
  return s;
}

/** spf13/cast ToInt64 as sprig uses it: conversion errors yield 0. */
export function toInt64(v: Value): bigint {
  if (isInt(v)) return intOf(v);
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) ? BigInt.asIntN(64, BigInt(Math.trunc(v))) : -(1n << 63n);
    case 'string':
      return parseGoInt(trimZeroDecimal(v), false) ?? 0n;
    case 'boolean':
      return v ? 1n : 0n;
  }
  return 0n;
}

/** spf13/cast ToFloat64 as sprig uses it: conversion errors yield 0. */
export function toFloat64(v: Value): number {
  if (isInt(v)) return Number(intOf(v));
  switch (typeof v) {
    case 'number':
      return v;
    case 'string': {
      const f = parseGoFloat(v);
      if (f !== undefined) return f;
      const special = /^[+-]?(inf|infinity|nan)$/i.exec(v);
      if (special) return /nan/i.test(v) ? NaN : v.startsWith('-') ? -Infinity : Infinity;
      return 0;
    }
    case 'boolean':
      return v ? 1 : 0;
  }
  return 0;
}

/** sprig's `empty`, used by `default`. */
export function isEmpty(v: Value): boolean {
  if (v === undefined || v === null) return true;
  if (v instanceof GoTime) return false;
  if (typeof v === 'string') return v.length === 0;
  if (Array.isArray(v)) return v.length === 0;
  if (v instanceof Map) return v.size === 0;
  if (typeof v === 'boolean') return !v;
  if (typeof v === 'number') return v === 0;
  if (isInt(v)) return intOf(v) === 0n;
  return Object.keys(v.data).length === 0;
}
