/**
 * Line filters (`|=`, `!=`, `|~`, `!~`, `|>`, `!>`, `ip()`), working on the line's bytes.
 * A filter chain is an AND of filters; `or` inside a filter is an OR of values for positive
 * operators and an AND of negations for negative ones, as Loki builds them.
 */
import { StageBuildError } from './errors';
import { IpMatcher } from './ip';
import type { LabelsBuilder } from './labels-builder';
import { PatternLineMatcher } from './pattern';
import type { Stage } from './pipeline';
import { compileRegex } from './regex';

export interface LineFilter {
  matches(line: Buffer): boolean;
  /** Relative cost, used to run cheap filters first in a chain. */
  readonly cost: number;
}

export type LineFilterOp = '|=' | '!=' | '|~' | '!~' | '|>' | '!>';

/** One value of a line filter: text (literal, regex or pattern by operator) or `ip("...")`. */
export interface LineFilterValue {
  readonly type: 'text' | 'ip';
  readonly value: string;
}

export const MATCH_ALL: LineFilter = { matches: () => true, cost: 0 };

export class ContainsFilter implements LineFilter {
  readonly cost = 1;
  private readonly needle: Buffer;

  constructor(readonly text: string) {
    this.needle = Buffer.from(text);
  }

  matches(line: Buffer): boolean {
    return line.indexOf(this.needle) >= 0;
  }
}

export class RegexFilter implements LineFilter {
  readonly cost = 10;
  private readonly re;

  constructor(readonly pattern: string) {
    this.re = compileRegex(pattern);
  }

  matches(line: Buffer): boolean {
    return this.re.test(line);
  }
}

export class PatternFilter implements LineFilter {
  readonly cost = 3;
  private readonly matcher: PatternLineMatcher;

  constructor(readonly pattern: string) {
    this.matcher = new PatternLineMatcher(pattern);
  }

  matches(line: Buffer): boolean {
    return this.matcher.test(line);
  }
}

export class IpLineFilter implements LineFilter {
  readonly cost = 5;
  private readonly matcher: IpMatcher;

  constructor(readonly pattern: string) {
    this.matcher = new IpMatcher(pattern);
  }

  matches(line: Buffer): boolean {
    return this.matcher.matchesAny(line);
  }
}

export class NotFilter implements LineFilter {
  readonly cost: number;

  constructor(readonly inner: LineFilter) {
    this.cost = inner.cost;
  }

  matches(line: Buffer): boolean {
    return !this.inner.matches(line);
  }
}

export class OrFilter implements LineFilter {
  readonly cost: number;

  constructor(readonly filters: readonly LineFilter[]) {
    this.cost = filters.reduce((sum, f) => sum + f.cost, 0);
  }

  matches(line: Buffer): boolean {
    for (const f of this.filters) if (f.matches(line)) return true;
    return false;
  }
}

export class AndFilter implements LineFilter {
  readonly cost: number;
  readonly filters: readonly LineFilter[];

  /** Filters are pure predicates, so they can run cheapest first. */
  constructor(filters: readonly LineFilter[]) {
    this.filters = [...filters].sort((a, b) => a.cost - b.cost);
    this.cost = filters.reduce((sum, f) => sum + f.cost, 0);
  }

  matches(line: Buffer): boolean {
    for (const f of this.filters) if (!f.matches(line)) return false;
    return true;
  }
}

const REGEX_META = /[\\.+*?()|[\]{}^$]/;

/** Regex metacharacters but `|`: a pattern with none is literals joined by `|`. */
export const REGEX_META_BUT_BAR = /[\\.+*?()[\]{}^$]/;

/**
 * A regex that is a plain literal runs as a substring search, and one that is only literals
 * joined by `|` (`timeout|declined`) as a search for each, as Loki simplifies them: the same
 * lines match, without the regex engine.
 */
function regexFilter(pattern: string): LineFilter {
  if (pattern === '') return MATCH_ALL;
  if (!REGEX_META.test(pattern)) return new ContainsFilter(pattern);
  if (!REGEX_META_BUT_BAR.test(pattern)) {
    const literals = pattern.split('|');
    // An empty alternative matches every line.
    if (literals.includes('')) return MATCH_ALL;
    return new OrFilter(literals.map((l) => new ContainsFilter(l)));
  }
  return new RegexFilter(pattern);
}

function positiveFilter(op: LineFilterOp, v: LineFilterValue): LineFilter {
  if (v.type === 'ip') {
    if (op !== '|=' && op !== '!=') throw new StageBuildError('ip: invalid operation');
    return new IpLineFilter(v.value);
  }
  switch (op) {
    case '|=':
    case '!=':
      return v.value === '' ? MATCH_ALL : new ContainsFilter(v.value);
    case '|~':
    case '!~':
      return regexFilter(v.value);
    case '|>':
    case '!>':
      return new PatternFilter(v.value);
  }
}

/**
 * Builds one line filter expression: `op v1 or v2 or ...`. Positive operators match when any
 * value matches; negative ones (`!=`, `!~`, `!>`) when none does.
 */
export function newLineFilter(op: LineFilterOp, values: readonly LineFilterValue[]): LineFilter {
  if (values.length === 0) throw new StageBuildError('line filter needs at least one value');
  const filters = values.map((v) => positiveFilter(op, v));
  const negative = op === '!=' || op === '!~' || op === '!>';
  if (negative) {
    if (filters.includes(MATCH_ALL)) return { matches: () => false, cost: 0 };
    const nots = filters.map((f) => new NotFilter(f));
    return nots.length === 1 ? nots[0] : new AndFilter(nots);
  }
  if (filters.includes(MATCH_ALL)) return MATCH_ALL;
  return filters.length === 1 ? filters[0] : new OrFilter(filters);
}

/** A chain of line filters (AND), cheap ones first; drops entries that do not match. */
export class LineFilterStage implements Stage {
  readonly filter: LineFilter;

  constructor(filters: readonly LineFilter[]) {
    const useful = filters.filter((f) => f !== MATCH_ALL);
    this.filter = useful.length === 1 ? useful[0] : new AndFilter(useful);
  }

  process(_ts: bigint, line: Buffer, _lbs: LabelsBuilder): Buffer | null {
    return this.filter.matches(line) ? line : null;
  }
}
