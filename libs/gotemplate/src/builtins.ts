import type { FuncDef } from './func-types';
import { formatValue, sprint, sprintf, sprintln } from './go-fmt';
import { GoTime } from './go-time';
import { decodeUtf8AsGo } from './go-utf8';
import { queryEscape } from './url';
import {
  byteLength,
  compareGoStrings,
  FuncError,
  intOf,
  isInt,
  isTrue,
  LabelMap,
  SizedInt,
  typeName,
  type Value,
} from './values';

type Kind = 'bool' | 'int' | 'uint' | 'float' | 'string' | 'invalid';

function basicKind(v: Value): Kind {
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'int';
    case 'number':
      return 'float';
    case 'string':
      return 'string';
  }
  if (v instanceof SizedInt) return v.type === 'uint8' ? 'uint' : 'int';
  return 'invalid';
}

const errBadComparisonType = 'invalid type for comparison';
const errBadComparison = 'incompatible types for comparison';

function isNilish(v: Value): boolean {
  return v === undefined || v === null;
}

function eq(args: Value[]): Value {
  const [a, ...rest] = args;
  if (rest.length === 0) throw new FuncError('missing argument for comparison');
  const k1 = basicKind(a);
  for (const b of rest) {
    const k2 = basicKind(b);
    let truth = false;
    const intish = (k: Kind): boolean => k === 'int' || k === 'uint';
    if (k1 !== k2 && !(intish(k1) && intish(k2))) {
      if (!isNilish(a) && !isNilish(b)) throw new FuncError(errBadComparison);
      truth = isNilish(a) && isNilish(b);
    } else if (k1 === 'invalid') {
      if (isNilish(a) || isNilish(b)) truth = isNilish(a) === isNilish(b);
      else if (a instanceof GoTime && b instanceof GoTime) {
        truth = a.unixSec === b.unixSec && a.nsec === b.nsec && a.zone === b.zone;
      } else {
        throw new FuncError(
          `non-comparable types ${formatValue(a)}: ${typeName(a)}, ${typeName(b)}: ${formatValue(b)}`,
        );
      }
    } else if (k1 === 'int' || k1 === 'uint') {
      truth = intOf(a as bigint) === intOf(b as bigint);
    } else truth = a === b;
    if (truth) return true;
  }
  return false;
}

function lt(a: Value, b: Value): boolean {
  const k1 = basicKind(a);
  const k2 = basicKind(b);
  const intish = (k: Kind): boolean => k === 'int' || k === 'uint';
  if (k1 === 'invalid' || k2 === 'invalid' || k1 === 'bool' || k2 === 'bool') {
    throw new FuncError(errBadComparisonType);
  }
  if (k1 !== k2 && !(intish(k1) && intish(k2))) throw new FuncError(errBadComparison);
  if (intish(k1)) return intOf(a as bigint) < intOf(b as bigint);
  if (k1 === 'string') return compareGoStrings(a as string, b as string) < 0;
  return (a as number) < (b as number);
}

function indexArg(v: Value, cap: number): number {
  if (!isInt(v)) {
    if (v === undefined || v === null) throw new FuncError('cannot index slice/array with nil');
    throw new FuncError(`cannot index slice/array with type ${typeName(v)}`);
  }
  const x = intOf(v);
  // Go checks `x > cap` here (the check is shared with slice), so an index equal to the
  // length passes and fails later in reflect, with reflect's panic text.
  if (x < 0n || x > BigInt(cap)) throw new FuncError(`index out of range: ${x}`);
  return Number(x);
}

function elementAt(kind: 'string' | 'slice', len: number, key: Value): number {
  const x = indexArg(key, len);
  if (x === len) throw new FuncError(`reflect: ${kind} index out of range`);
  return x;
}

function index(args: Value[]): Value {
  let item = args[0];
  if (item === undefined || item === null) throw new FuncError('index of untyped nil');
  for (const key of args.slice(1)) {
    if (item === undefined || item === null) throw new FuncError('index of nil pointer');
    if (typeof item === 'string') {
      const bytes: Buffer = Buffer.from(item, 'utf8');
      item = new SizedInt('uint8', BigInt(bytes[elementAt('string', bytes.length, key)]));
    } else if (Array.isArray(item)) {
      item = item[elementAt('slice', item.length, key)];
      if (item === null) item = undefined;
    } else if (item instanceof Map || item instanceof LabelMap) {
      if (typeof key !== 'string') {
        const t = key === undefined || key === null ? 'nil' : typeName(key);
        throw new FuncError(`value has type ${t}; should be string`);
      }
      item = item instanceof LabelMap ? item.get(key) : (item.get(key) ?? undefined);
    } else {
      throw new FuncError(`can't index item of type ${typeName(item)}`);
    }
  }
  return item;
}

function slice(args: Value[]): Value {
  const item = args[0];
  if (item === undefined || item === null) throw new FuncError('slice of untyped nil');
  if (args.length > 4) throw new FuncError(`too many slice indexes: ${args.length - 1}`);
  let len: number;
  if (typeof item === 'string') {
    if (args.length === 4) throw new FuncError('cannot 3-index slice a string');
    len = byteLength(item);
  } else if (Array.isArray(item)) len = item.length;
  else throw new FuncError(`can't slice item of type ${typeName(item)}`);
  const idx = [0, len];
  for (let i = 1; i < args.length; i++) {
    const v = args[i];
    if (!isInt(v)) throw new FuncError(`cannot index slice/array with type ${typeName(v)}`);
    const x = Number(intOf(v));
    if (x < 0 || x > len) throw new FuncError(`index out of range: ${x}`);
    idx[i - 1] = x;
  }
  if (idx[0] > idx[1]) throw new FuncError(`invalid slice index: ${idx[0]} > ${idx[1]}`);
  if (typeof item === 'string')
    return decodeUtf8AsGo(Buffer.from(item, 'utf8').subarray(idx[0], idx[1]));
  if (args.length === 4 && idx[1] > Number(intOf(args[3] as bigint))) {
    throw new FuncError(`invalid slice index: ${idx[1]} > ${intOf(args[3] as bigint)}`);
  }
  return item.slice(idx[0], idx[1]);
}

function length(args: Value[]): Value {
  const v = args[0];
  if (typeof v === 'string') return BigInt(byteLength(v));
  if (Array.isArray(v)) return BigInt(v.length);
  if (v instanceof Map) return BigInt(v.size);
  if (v instanceof LabelMap) return BigInt(Object.keys(v.data).length);
  if (v === undefined || v === null) throw new FuncError('len of nil pointer');
  throw new FuncError(`len of type ${typeName(v)}`);
}

/** Go's evalArgs for html/js/urlquery: a single string is used as is, else fmt.Sprint. */
function argsText(args: Value[]): string {
  if (args.length === 1 && typeof args[0] === 'string') return args[0];
  return sprint(args.map((a) => (a === undefined ? null : a)));
}

export function htmlEscape(s: string): string {
  return s.replace(/[&'<>"\0]/g, (c) =>
    c === '&'
      ? '&amp;'
      : c === "'"
        ? '&#39;'
        : c === '<'
          ? '&lt;'
          : c === '>'
            ? '&gt;'
            : c === '"'
              ? '&#34;'
              : '\uFFFD',
  );
}

const JS_PRINTABLE = /[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u;

export function jsEscape(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    switch (ch) {
      case '\\':
        out += '\\\\';
        continue;
      case "'":
        out += "\\'";
        continue;
      case '"':
        out += '\\"';
        continue;
      case '<':
        out += '\\u003C';
        continue;
      case '>':
        out += '\\u003E';
        continue;
      case '&':
        out += '\\u0026';
        continue;
      case '=':
        out += '\\u003D';
        continue;
    }
    if (c < 0x20) out += '\\u00' + c.toString(16).toUpperCase().padStart(2, '0');
    else if (c < 0x80 || JS_PRINTABLE.test(ch)) out += ch;
    else out += '\\u' + c.toString(16).toUpperCase().padStart(4, '0');
  }
  return out;
}

const toPrintArgs = (args: Value[]): Value[] => args.map((a) => (a === undefined ? null : a));

/** Go text/template's predefined global functions. */
export const BUILTINS: ReadonlyMap<string, FuncDef> = new Map<string, FuncDef>([
  ['and', { params: ['value'], variadic: 'value', shortCircuit: 'and', call: () => undefined }],
  ['or', { params: ['value'], variadic: 'value', shortCircuit: 'or', call: () => undefined }],
  ['not', { params: ['value'], call: (a) => !isTrue(a[0]) }],
  ['len', { params: ['value'], call: length }],
  ['index', { params: ['value'], variadic: 'value', call: index }],
  ['slice', { params: ['value'], variadic: 'value', call: slice }],
  ['print', { params: [], variadic: 'any', call: (a) => sprint(toPrintArgs(a)) }],
  ['println', { params: [], variadic: 'any', call: (a) => sprintln(toPrintArgs(a)) }],
  [
    'printf',
    {
      params: ['string'],
      variadic: 'any',
      call: (a) => sprintf(a[0] as string, toPrintArgs(a.slice(1))),
    },
  ],
  ['html', { params: [], variadic: 'any', call: (a) => htmlEscape(argsText(a)) }],
  ['js', { params: [], variadic: 'any', call: (a) => jsEscape(argsText(a)) }],
  ['urlquery', { params: [], variadic: 'any', call: (a) => queryEscape(argsText(a)) }],
  [
    'call',
    {
      params: ['value'],
      variadic: 'value',
      call: (a) => {
        // Template data here holds no function values, so every call target is a non-function.
        if (a[0] === undefined || a[0] === null) throw new FuncError('call of nil');
        throw new FuncError(`non-function of type ${typeName(a[0])}`);
      },
    },
  ],
  ['eq', { params: ['value'], variadic: 'value', call: eq }],
  ['ne', { params: ['value', 'value'], call: (a) => !eq(a) }],
  ['lt', { params: ['value', 'value'], call: (a) => lt(a[0], a[1]) }],
  ['le', { params: ['value', 'value'], call: (a) => lt(a[0], a[1]) || (eq(a) as boolean) }],
  ['gt', { params: ['value', 'value'], call: (a) => !(lt(a[0], a[1]) || (eq(a) as boolean)) }],
  ['ge', { params: ['value', 'value'], call: (a) => !lt(a[0], a[1]) }],
]);
