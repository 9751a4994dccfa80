// Building blocks of the config schema. Each helper accepts what Loki's YAML accepts for that
// kind of field and reports bad values with a message that says what was expected.
import { datasizeParseString } from '@logsvc/gocompat';
import { z } from 'zod';
import { parseDuration } from './duration';

/** Kinds of fields whose YAML text differs from their in-memory value. */
export type FieldKind = 'duration' | 'size' | 'timestamp';

/** Marks schemas so that printing and diffing can turn numbers back into `5m` or `256KB`. */
export const fieldKinds = new WeakMap<z.ZodType, FieldKind>();

export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || value === undefined) return 'nothing';
  if (typeof value === 'object') return Array.isArray(value) ? 'a list' : 'a map';
  return String(value);
}

function kinded<T extends z.ZodType>(kind: FieldKind, schema: T): T {
  fieldKinds.set(schema, kind);
  return schema;
}

/** How a command-line flag's text is read before it is merged into the YAML document. */
export type FlagKind = 'string' | 'int' | 'float' | 'bool' | 'duration' | 'size' | 'list';

/** The flag kind of each field builder's schema, so that `flag()` needs no kind argument. */
const flagKinds = new WeakMap<z.ZodType, FlagKind>();

/** Flag names declared on a field with `flag()`. */
export const fieldFlags = new WeakMap<z.ZodType, readonly string[]>();

function flaggable<T extends z.ZodType>(kind: FlagKind, schema: T): T {
  flagKinds.set(schema, kind);
  return schema;
}

/**
 * Declares the Loki command-line flag (or flags, when Loki has two spellings) that sets this
 * field: `http_listen_port: flag('server.http-listen-port', int(3100))`.
 */
export function flag<T extends z.ZodType>(names: string | readonly string[], schema: T): T {
  if (!flagKinds.has(schema)) throw new Error(`flag ${String(names)}: field has no flag kind`);
  fieldFlags.set(schema, typeof names === 'string' ? [names] : names);
  return schema;
}

/** The flag kind of a field that carries flags. */
export function flagKindOf(schema: z.ZodType): FlagKind | undefined {
  return flagKinds.get(schema);
}

/** A duration in YAML (`5m`, `1h30m`, `1d`, `300ms`), milliseconds in the config object. */
export function duration(defaultMs: number) {
  const schema = z.unknown().transform((value, ctx) => {
    if (value === 0) return 0;
    if (typeof value === 'string') {
      const ms = parseDuration(value);
      if (ms !== undefined) return ms;
    }
    ctx.addIssue({ code: 'custom', message: `expected a duration like 5m, got ${show(value)}` });
    return z.NEVER;
  });
  return flaggable('duration', kinded('duration', schema).default(defaultMs));
}

/** A byte size in YAML (`256KB`, `4MB`, `1GiB` or a plain number of bytes), bytes in the object. */
export function size(defaultBytes: number) {
  const schema = z.unknown().transform((value, ctx) => {
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
    if (typeof value === 'string') {
      const bytes = datasizeParseString(value);
      if (bytes !== undefined) return bytes;
    }
    ctx.addIssue({ code: 'custom', message: `expected a size like 256KB, got ${show(value)}` });
    return z.NEVER;
  });
  return flaggable('size', kinded('size', schema).default(defaultBytes));
}

/** A point in time: RFC 3339 in YAML, epoch milliseconds in the object, 0 meaning unset. */
export function timestamp() {
  const schema = z.unknown().transform((value, ctx) => {
    if (value === 0 || value === '' || value === '0') return 0;
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) {
      const ms = Date.parse(value);
      if (!Number.isNaN(ms)) return ms;
    }
    if (value instanceof Date && !Number.isNaN(value.getTime())) return value.getTime();
    ctx.addIssue({
      code: 'custom',
      message: `expected an RFC 3339 time like 2024-01-02T15:04:05Z, got ${show(value)}`,
    });
    return z.NEVER;
  });
  return kinded('timestamp', schema).default(0);
}

function expectNumber(value: unknown, integer: boolean, min: number, ctx: z.RefinementCtx) {
  const what = integer ? 'an integer' : 'a number';
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    (integer && !Number.isInteger(value))
  ) {
    ctx.addIssue({ code: 'custom', message: `expected ${what}, got ${show(value)}` });
    return z.NEVER;
  }
  if (value < min) {
    ctx.addIssue({ code: 'custom', message: `must be at least ${min}, got ${value}` });
    return z.NEVER;
  }
  return value;
}

export function int(defaultValue: number, min = 0) {
  return flaggable(
    'int',
    z
      .unknown()
      .transform((v, ctx) => expectNumber(v, true, min, ctx))
      .default(defaultValue),
  );
}

export function float(defaultValue: number, min = 0) {
  return flaggable(
    'float',
    z
      .unknown()
      .transform((v, ctx) => expectNumber(v, false, min, ctx))
      .default(defaultValue),
  );
}

export function bool(defaultValue: boolean) {
  return flaggable(
    'bool',
    z
      .unknown()
      .transform((v, ctx) => {
        if (typeof v === 'boolean') return v;
        ctx.addIssue({ code: 'custom', message: `expected true or false, got ${show(v)}` });
        return z.NEVER;
      })
      .default(defaultValue),
  );
}

export function str(defaultValue: string) {
  return flaggable(
    'string',
    z
      .unknown()
      .transform((v, ctx) => {
        if (typeof v === 'string') return v;
        // YAML turns bare numbers into numbers; a string field takes them as their text.
        if (typeof v === 'number') return String(v);
        ctx.addIssue({ code: 'custom', message: `expected a string, got ${show(v)}` });
        return z.NEVER;
      })
      .default(defaultValue),
  );
}

/**
 * One of `values`. `refused` maps values Loki accepts but logsvc does not to the message that
 * says so (instead of the generic "expected one of").
 */
export function oneOf<const T extends readonly [string, ...string[]]>(
  values: T,
  defaultValue: T[number],
  refused: Readonly<Record<string, string>> = {},
) {
  return flaggable(
    'string',
    z
      .unknown()
      .transform((v, ctx) => {
        if (typeof v === 'string' && (values as readonly string[]).includes(v))
          return v as T[number];
        const refusal = typeof v === 'string' && Object.hasOwn(refused, v) ? refused[v] : undefined;
        ctx.addIssue({
          code: 'custom',
          message: refusal ?? `expected one of ${values.join(', ')}, got ${show(v)}`,
        });
        return z.NEVER;
      })
      .default(defaultValue as never),
  );
}

/** A list of strings; a comma-separated string is accepted too (as Loki's flagext.StringSliceCSV). */
export function stringList(defaultValue: readonly string[]) {
  return flaggable(
    'list',
    z
      .unknown()
      .transform((v, ctx) => {
        if (typeof v === 'string') return v === '' ? [] : v.split(',').map((s) => s.trim());
        if (Array.isArray(v) && v.every((s) => typeof s === 'string')) return v as string[];
        ctx.addIssue({ code: 'custom', message: `expected a list of strings, got ${show(v)}` });
        return z.NEVER;
      })
      .default(() => [...defaultValue]),
  );
}

/** A YAML mapping with exactly these keys; missing keys take their defaults. */
export function section<S extends z.ZodRawShape>(shape: S) {
  // Every field has a default, so an absent section is parsed as an empty map.
  return z.strictObject(shape).prefault({} as never);
}
