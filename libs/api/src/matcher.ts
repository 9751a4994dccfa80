/**
 * Label matchers with Prometheus semantics, shared by the LogQL library, the querier and the
 * storage index. A missing label matches as the empty string; regexes are fully anchored and
 * run on RE2 (linear time whatever the input).
 */
import { LogsvcError } from '@logsvc/errors';
import { regexpCompileError } from '@logsvc/gocompat';
import RE2 from 're2';
import { goQuote, type Labels } from './labels';

export type MatchType = '=' | '!=' | '=~' | '!~';

export interface Matcher {
  readonly type: MatchType;
  readonly name: string;
  readonly value: string;
}

/** A matcher that cannot be used (bad regex, unknown type): `bad_request` (400). */
export class InvalidMatcherError extends LogsvcError {
  constructor(message: string) {
    super('bad_request', message);
    this.name = 'InvalidMatcherError';
  }
}

/** A matcher prepared for repeated use: tests one label value (`''` when the label is missing). */
export interface CompiledMatcher {
  readonly matcher: Matcher;
  matches(value: string): boolean;
}

/** The anchored form Prometheus uses for `=~` / `!~`: the whole value must match. */
export function anchorRegex(pattern: string): string {
  return `^(?:${pattern})$`;
}

/** Compiles an anchored RE2 regex; a bad pattern becomes an InvalidMatcherError. */
export function compileAnchoredRegex(pattern: string): RE2 {
  try {
    return new RE2(anchorRegex(pattern));
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new InvalidMatcherError(regexpCompileError(pattern, reason));
  }
}

const compiledCache = new WeakMap<Matcher, CompiledMatcher>();

export function compileMatcher(matcher: Matcher): CompiledMatcher {
  const cached = compiledCache.get(matcher);
  if (cached !== undefined) return cached;
  const compiled = buildMatcher(matcher);
  compiledCache.set(matcher, compiled);
  return compiled;
}

function buildMatcher(matcher: Matcher): CompiledMatcher {
  const { type, value } = matcher;
  switch (type) {
    case '=':
      return { matcher, matches: (v) => v === value };
    case '!=':
      return { matcher, matches: (v) => v !== value };
    case '=~': {
      const re = compileAnchoredRegex(value);
      return { matcher, matches: (v) => re.test(v) };
    }
    case '!~': {
      const re = compileAnchoredRegex(value);
      return { matcher, matches: (v) => !re.test(v) };
    }
    default:
      throw new InvalidMatcherError(`unknown match type: ${String(type)}`);
  }
}

/** Whether a matcher accepts the empty string, i.e. also series that lack the label. */
export function matcherMatchesEmpty(matcher: Matcher): boolean {
  return compileMatcher(matcher).matches('');
}

/** Whether every matcher accepts the label set (missing labels count as `''`). */
export function matchesLabels(matchers: readonly Matcher[], labels: Labels): boolean {
  for (const m of matchers) {
    const compiled = compileMatcher(m);
    let value = '';
    for (const p of labels) {
      if (p.name === m.name) {
        value = p.value;
        break;
      }
    }
    if (!compiled.matches(value)) return false;
  }
  return true;
}

/** The matcher as LogQL prints it: `name="value"`, `name=~"re"`, ... */
export function matcherToString(matcher: Matcher): string {
  return matcher.name + matcher.type + goQuote(matcher.value);
}
