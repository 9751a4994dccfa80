/**
 * Label filters (`| a="x"`, `| n > 5`, `| d >= 10s`, `| b < 20MB`, `| ip = ip("...")`, and/or).
 * String filters compare the value (`""` when missing) and can read `__error__`.
 * Numeric, duration and bytes filters (Loki 3.4 `label_filter.go`) judge every entry, one that
 * already carries an error included: a missing label drops it, a value that converts is
 * compared, a value that does not convert keeps it and sets `__error__=LabelFilterErr` with Go's
 * error text as details unless an earlier error is already set. The ip filter lets an entry
 * that already has an error through and drops one whose label is missing.
 */
import { compileMatcher, type MatchType } from '@logsvc/api';
import { ConversionError, parseGoDurationNs, parseGoFloat, parseHumanBytes } from './conversions';
import { ERR_LABEL_FILTER, ERROR_DETAILS_LABEL, ERROR_LABEL, StageBuildError } from './errors';
import { IpMatcher } from './ip';
import type { LabelsBuilder } from './labels-builder';
import type { Stage } from './pipeline';

export interface LabelFilter {
  matches(lbs: LabelsBuilder): boolean;
}

/** `=` and `==` both mean equality, as in Loki's grammar. */
export type ComparisonOp = '==' | '=' | '!=' | '>' | '>=' | '<' | '<=';

export class StringLabelFilter implements LabelFilter {
  private readonly test: (value: string) => boolean;

  constructor(
    readonly name: string,
    readonly type: MatchType,
    readonly value: string,
  ) {
    try {
      this.test = compileMatcher({ name, type, value }).matches;
    } catch (err) {
      throw new StageBuildError(err instanceof Error ? err.message : String(err));
    }
  }

  matches(lbs: LabelsBuilder): boolean {
    if (this.name === ERROR_LABEL) return this.test(lbs.getErr());
    if (this.name === ERROR_DETAILS_LABEL) return this.test(lbs.getErrorDetails());
    return this.test(lbs.get(this.name) ?? '');
  }

  /** The verdict on the label's value alone (undefined when absent); not for error labels. */
  judge(value: string | undefined): boolean {
    return this.test(value ?? '');
  }
}

export function compareNumbers(op: ComparisonOp, a: number, b: number): boolean {
  switch (op) {
    case '==':
    case '=':
      return a === b;
    case '!=':
      return a !== b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
  }
}

/** Shared behaviour of numeric, duration and bytes filters; `convert` throws ConversionError. */
export abstract class ConvertingLabelFilter implements LabelFilter {
  constructor(
    readonly name: string,
    readonly op: ComparisonOp,
    readonly value: number,
  ) {}

  protected abstract convert(text: string): number;

  matches(lbs: LabelsBuilder): boolean {
    const verdict = this.verdict(lbs.get(this.name));
    if (verdict instanceof ConversionError) {
      // an earlier error (a parser's) says more than ours: keep it
      if (!lbs.hasErr()) {
        lbs.setErr(ERR_LABEL_FILTER);
        lbs.setErrorDetails(verdict.message);
      }
      return true;
    }
    return verdict;
  }

  /**
   * The verdict on the label's value alone (undefined when absent), or null when the value
   * does not convert (`matches` then keeps the entry with an error).
   */
  judge(text: string | undefined): boolean | null {
    const verdict = this.verdict(text);
    return verdict instanceof ConversionError ? null : verdict;
  }

  /** False for a missing label, the comparison's result, or the conversion's error. */
  private verdict(text: string | undefined): boolean | ConversionError {
    if (text === undefined) return false;
    let v: number;
    try {
      v = this.convert(text);
    } catch (err) {
      if (!(err instanceof ConversionError)) throw err;
      return err;
    }
    return compareNumbers(this.op, v, this.value);
  }
}

/** `| n > 1.5`: the value read with `strconv.ParseFloat`. */
export class NumericLabelFilter extends ConvertingLabelFilter {
  protected convert(text: string): number {
    return parseGoFloat(text);
  }
}

/** `| d > 10s`: `value` in nanoseconds, the label read with `time.ParseDuration`. */
export class DurationLabelFilter extends ConvertingLabelFilter {
  protected convert(text: string): number {
    return parseGoDurationNs(text);
  }
}

/** `| b > 20MB`: `value` in bytes, the label read with `humanize.ParseBytes`. */
export class BytesLabelFilter extends ConvertingLabelFilter {
  protected convert(text: string): number {
    return parseHumanBytes(text);
  }
}

/** `| addr = ip("10.0.0.0/8")` / `!=`: any address found in the value. */
export class IpLabelFilter implements LabelFilter {
  private readonly matcher: IpMatcher;

  constructor(
    readonly name: string,
    readonly op: '=' | '!=',
    readonly pattern: string,
  ) {
    if (op !== '=' && op !== '!=') throw new StageBuildError('ip: invalid operation');
    this.matcher = new IpMatcher(pattern);
  }

  matches(lbs: LabelsBuilder): boolean {
    if (lbs.hasErr()) return true;
    const value = lbs.get(this.name);
    if (value === undefined) return false;
    const found = this.matcher.matchesString(value);
    return this.op === '=' ? found : !found;
  }
}

/** `a and b`, `a or b` (right side only evaluated when needed). */
export class BinaryLabelFilter implements LabelFilter {
  constructor(
    readonly and: boolean,
    readonly left: LabelFilter,
    readonly right: LabelFilter,
  ) {}

  matches(lbs: LabelsBuilder): boolean {
    const left = this.left.matches(lbs);
    if (this.and ? !left : left) return left;
    return this.right.matches(lbs);
  }
}

export function andLabelFilters(left: LabelFilter, right: LabelFilter): LabelFilter {
  return new BinaryLabelFilter(true, left, right);
}

export function orLabelFilters(left: LabelFilter, right: LabelFilter): LabelFilter {
  return new BinaryLabelFilter(false, left, right);
}

/** A label filter as a pipeline stage: entries that do not match are dropped. */
export class LabelFilterStage implements Stage {
  constructor(readonly filter: LabelFilter) {}

  process(_ts: bigint, line: Buffer, lbs: LabelsBuilder): Buffer | null {
    return this.filter.matches(lbs) ? line : null;
  }

  processRange(_source: Buffer, _start: number, _end: number, lbs: LabelsBuilder): boolean {
    return this.filter.matches(lbs);
  }
}
