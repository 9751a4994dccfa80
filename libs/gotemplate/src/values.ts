import type { GoTime } from './go-time';

/**
 * Runtime values of the template engine, modelled on the Go types the Loki functions use:
 * - `string` is a Go string, `number` a float64, `boolean` a bool;
 * - `bigint` is a Go `int` (number literals, `len`, `int`, `count`);
 * - `SizedInt` is another integer type (`int64` from sprig math, `uint8` from indexing a string,
 *   `time.Duration`, `time.Month`, `time.Weekday` from time.Time methods);
 * - `GoTime` is a time.Time, arrays are `[]interface{}`, `Map` is `map[string]interface{}`;
 * - `LabelMap` is the `map[string]string` of labels the template runs on;
 * - `null` is a nil interface and `undefined` an invalid (missing) value.
 */
export type Value =
  | string
  | number
  | bigint
  | boolean
  | null
  | undefined
  | SizedInt
  | GoTime
  | LabelMap
  | Value[]
  | Map<string, Value>;

/**
 * An integer of a Go type other than `int`, so type checks and messages match Go. The `time`
 * types are Stringers: `%v` and `print` show `Monday`, `March`, `1h30m0s`.
 */
export class SizedInt {
  constructor(
    readonly type: 'int64' | 'uint8' | 'time.Duration' | 'time.Month' | 'time.Weekday',
    readonly v: bigint,
  ) {}
}

/** The label map a template executes on; missing keys read as "" (`missingkey=zero`). */
export class LabelMap {
  constructor(readonly data: Readonly<Record<string, string>>) {}
  get(key: string): string {
    const v = this.data[key];
    return typeof v === 'string' && Object.prototype.hasOwnProperty.call(this.data, key) ? v : '';
  }
  has(key: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.data, key);
  }
  keys(): string[] {
    return Object.keys(this.data).sort(compareGoStrings);
  }
}

/** An execution error raised by a function; the executor prefixes `error calling <name>: `. */
export class FuncError extends Error {}

/** Go compares strings bytewise (UTF-8); this matches it for all code points. */
export function compareGoStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(i)!;
    if (ca !== cb) return ca < cb ? -1 : 1;
    if (ca > 0xffff) i++;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

export function isInt(v: Value): v is bigint | SizedInt {
  return typeof v === 'bigint' || v instanceof SizedInt;
}

export function intOf(v: bigint | SizedInt): bigint {
  return typeof v === 'bigint' ? v : v.v;
}

/** The Go type name of a value, as printed in error messages. */
export function typeName(v: Value): string {
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
      return 'float64';
    case 'bigint':
      return 'int';
    case 'boolean':
      return 'bool';
    case 'undefined':
      return '<nil>';
  }
  if (v === null) return '<nil>';
  if (v instanceof SizedInt) return v.type;
  if (Array.isArray(v)) return '[]interface {}';
  if (v instanceof Map) return 'map[string]interface {}';
  if (v instanceof LabelMap) return 'map[string]string';
  return 'time.Time';
}

/** Go's truth (`if`, `with`, `and`, `or`, `not`): the zero value of any type is false. */
export function isTrue(v: Value): boolean {
  switch (typeof v) {
    case 'string':
      return v.length > 0;
    case 'number':
      return v !== 0;
    case 'bigint':
      return v !== 0n;
    case 'boolean':
      return v;
    case 'undefined':
      return false;
  }
  if (v === null) return false;
  if (v instanceof SizedInt) return v.v !== 0n;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof Map) return v.size > 0;
  if (v instanceof LabelMap) return Object.keys(v.data).length > 0;
  return true; // structs (time.Time) are always true
}

/** UTF-8 byte length, which is what Go's `len` and string indexes count. */
export function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}
