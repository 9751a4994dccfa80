/**
 * User regular expressions with Go RE2 semantics, run by the native `re2` binding (linear
 * time, no backtracking). Works on Buffers (UTF-8 bytes, no string conversion) and strings.
 *
 * Go syntax is RE2 syntax, so sources are passed through unchanged: `(?P<name>...)`,
 * `(?i)`, `(?s)`, `(?m)`, `(?U)`, `\pL`, `\Q...\E` all work as in Go.
 */
import { regexpCompileError } from '@logsvc/gocompat';
import RE2 from 're2';
import { classEnd } from './class-end';
import { extractLiteralPrefilter } from './literal';

export interface CompileOptions {
  /**
   * Match the whole input (`^(?:re)$`), as Prometheus label matchers, label filters and
   * label_replace do. Default false: match anywhere, as line filters do.
   */
  readonly anchored?: boolean;
}

/** The result of one match: groups by index (0 = whole match) and by name. */
export interface RegexMatch<T extends Buffer | string> {
  /** Start of the match, in bytes for Buffer input and UTF-16 units for string input. */
  readonly index: number;
  /** `groups[0]` is the whole match; unmatched optional groups are undefined. */
  readonly groups: ReadonlyArray<T | undefined>;
  /** Named groups; a name whose group did not take part maps to undefined. */
  readonly named: Readonly<Record<string, T | undefined>>;
}

export interface CompiledRegex {
  /** The source as the user wrote it (without added anchors). */
  readonly source: string;
  readonly anchored: boolean;
  /** Capture group names by group index (index 0 and unnamed groups are `''`). */
  readonly groupNames: readonly string[];
  /**
   * A literal every match must contain (case-sensitive), when one can be found cheaply:
   * callers may skip inputs without it (`Buffer.indexOf`) before running the regex.
   */
  readonly literalPrefilter: string | undefined;
  test(input: Buffer | string): boolean;
  exec<T extends Buffer | string>(input: T): RegexMatch<T> | undefined;
  /** The underlying RE2 object, for replace/split on the rare paths that need them. */
  readonly re2: RE2;
}

/** An invalid regex, with Go's message: `error parsing regexp: missing closing ): \`(a\``. */
export class RegexSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegexSyntaxError';
  }
}

/** Compiles a Go/RE2 regex; an invalid one throws RegexSyntaxError with Go's wording. */
export function compileRegex(source: string, options: CompileOptions = {}): CompiledRegex {
  const anchored = options.anchored ?? false;
  const full = anchored ? `^(?:${source})$` : source;
  const re2 = newRe2(full, source);
  const groupNames = captureGroupNames(full);
  const literalPrefilter = extractLiteralPrefilter(source);
  return {
    source,
    anchored,
    groupNames,
    literalPrefilter,
    re2,
    test: (input) => re2.test(input),
    exec<T extends Buffer | string>(input: T): RegexMatch<T> | undefined {
      const m = re2.exec(input as string) as unknown as
        (Array<T | undefined> & { index: number; groups?: Record<string, T | undefined> }) | null;
      if (m === null) return undefined;
      const groups = Array.from(m);
      const named: Record<string, T | undefined> = {};
      for (let i = 1; i < groupNames.length; i++) {
        if (groupNames[i] !== '') named[groupNames[i]] = groups[i];
      }
      return { index: m.index, groups, named };
    },
  };
}

/**
 * RE2 for `full` (`source`, perhaps anchored). Errors quote `source` as Go's parser would
 * quote it alone: Prometheus parses a matcher's value before anchoring it, so
 * `{a=~"(x"}` fails with ``missing closing ): `(x` ``, not with the anchored text.
 */
function newRe2(full: string, source: string): RE2 {
  try {
    const re2 = new RE2(full, 'u');
    const goError = goOnlyError(source);
    if (goError !== undefined) throw new RegexSyntaxError(`error parsing regexp: ${goError}`);
    return re2;
  } catch (err) {
    if (err instanceof RegexSyntaxError) throw err;
    const message = errorMessage(err);
    // Go allows a group name twice (Loki's regexp stage then rejects the duplicate label).
    if (message.startsWith('duplicate capture group name')) {
      const renamed = withoutRepeatedNames(full);
      if (renamed !== full) return newRe2(renamed, withoutRepeatedNames(source));
    }
    if (full !== source) {
      try {
        new RE2(source, 'u');
      } catch (alone) {
        throw new RegexSyntaxError(regexpCompileError(source, errorMessage(alone)));
      }
    }
    throw new RegexSyntaxError(regexpCompileError(source, message));
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The first error of Go's parser that RE2 does not make: `\C` (RE2's any-byte escape) and a
 * group name other than ASCII letters, digits and `_`.
 */
function goOnlyError(source: string): string | undefined {
  let inClass = false;
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') {
      if (source[i + 1] === 'C') return 'invalid escape sequence: `\\C`';
      const end = source[i + 1] === 'Q' ? source.indexOf('\\E', i + 2) : i;
      i = end < 0 ? source.length : end + 2;
    } else if (inClass) {
      if (c === ']') inClass = false;
      i++;
    } else if (c === '[') {
      inClass = true;
      // a `]` right after `[` or `[^` is a literal
      i += source[i + 1] === '^' ? (source[i + 2] === ']' ? 3 : 2) : source[i + 1] === ']' ? 2 : 1;
    } else {
      const m = c === '(' ? /^\(\?P?<([^>]*)>/u.exec(source.slice(i, i + 300)) : null;
      if (m !== null && !/^[A-Za-z0-9_]+$/.test(m[1])) return `invalid named capture: \`${m[0]}\``;
      i++;
    }
  }
  return undefined;
}

/** `source` with the second and later groups of a repeated name made unnamed captures. */
function withoutRepeatedNames(source: string): string {
  const seen = new Set<string>();
  let out = '';
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') {
      const end = source[i + 1] === 'Q' ? source.indexOf('\\E', i + 2) : i;
      const next = end < 0 ? source.length : end + 2;
      out += source.slice(i, next);
      i = next;
    } else if (c === '[') {
      const next = skipClass(source, i);
      out += source.slice(i, next);
      i = next;
    } else {
      const m = c === '(' ? /^\(\?P?<([A-Za-z0-9_]+)>/.exec(source.slice(i, i + 300)) : null;
      if (m !== null && seen.has(m[1])) {
        out += '(';
      } else {
        if (m !== null) seen.add(m[1]);
        out += m !== null ? m[0] : c;
      }
      i += m !== null ? m[0].length : 1;
    }
  }
  return out;
}

/**
 * Names of the capture groups by index, read from the source: `(?P<n>` and `(?<n>` are named,
 * `(` not followed by `?` is an unnamed capture; `\` escapes and `[...]` classes are skipped.
 */
export function captureGroupNames(source: string): string[] {
  const names = [''];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') {
      if (source[i + 1] === 'Q') {
        const end = source.indexOf('\\E', i + 2);
        i = end < 0 ? source.length : end + 2;
      } else {
        i += 2;
      }
    } else if (c === '[') {
      i = skipClass(source, i);
    } else if (c === '(') {
      if (source[i + 1] !== '?') {
        names.push('');
      } else {
        const m = /^\(\?P?<([A-Za-z0-9_]+)>/.exec(source.slice(i, i + 300));
        if (m !== null) names.push(m[1]);
      }
      i++;
    } else {
      i++;
    }
  }
  return names;
}

/** Index just past a `[...]` class starting at `start`; the end of the source if it is not closed. */
function skipClass(source: string, start: number): number {
  const end = classEnd(source, start);
  return end < 0 ? source.length : end;
}
