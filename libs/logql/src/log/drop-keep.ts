/**
 * `| drop a, b="v", c=~"re"` and `| keep a, b="v"`. A bare name drops / keeps the label; a
 * matcher only when the value matches. `drop __error__` clears the error; `keep` never removes
 * `__error__`, `__error_details__` or `__preserve_error__`.
 */
import { compileMatcher, type MatchType } from '@logsvc/api';
import { ERROR_DETAILS_LABEL, ERROR_LABEL, PRESERVE_ERROR_LABEL, StageBuildError } from './errors';
import type { LabelsBuilder } from './labels-builder';
import type { Stage } from './pipeline';

/** A bare label name (no `type`), or a matcher on its value. */
export interface LabelSelector {
  readonly name: string;
  readonly type?: MatchType;
  readonly value?: string;
}

interface CompiledSelector {
  readonly name: string;
  readonly matches: ((value: string) => boolean) | null;
}

function compileSelectors(selectors: readonly LabelSelector[]): CompiledSelector[] {
  return selectors.map((s) => {
    if (s.type === undefined) return { name: s.name, matches: null };
    try {
      const m = compileMatcher({ name: s.name, type: s.type, value: s.value ?? '' });
      return { name: s.name, matches: m.matches };
    } catch (err) {
      throw new StageBuildError(err instanceof Error ? err.message : String(err));
    }
  });
}

export class DropLabelsStage implements Stage {
  private readonly selectors: CompiledSelector[];

  constructor(selectors: readonly LabelSelector[]) {
    this.selectors = compileSelectors(selectors);
  }

  process(_ts: bigint, line: Buffer, lbs: LabelsBuilder): Buffer {
    for (const s of this.selectors) {
      if (s.matches === null) {
        lbs.del(s.name);
        continue;
      }
      const value =
        s.name === ERROR_LABEL
          ? lbs.getErr()
          : s.name === ERROR_DETAILS_LABEL
            ? lbs.getErrorDetails()
            : (lbs.get(s.name) ?? '');
      if (s.matches(value)) lbs.del(s.name);
    }
    return line;
  }
}

const SPECIAL = new Set([ERROR_LABEL, ERROR_DETAILS_LABEL, PRESERVE_ERROR_LABEL]);

export class KeepLabelsStage implements Stage {
  private readonly selectors: CompiledSelector[];

  constructor(selectors: readonly LabelSelector[]) {
    this.selectors = compileSelectors(selectors);
  }

  process(_ts: bigint, line: Buffer, lbs: LabelsBuilder): Buffer {
    if (this.selectors.length === 0) return line;
    for (const { name, value } of lbs.labels().labels) {
      if (SPECIAL.has(name)) continue;
      let keep = false;
      for (const s of this.selectors) {
        if (s.name === name && (s.matches === null || s.matches(value))) {
          keep = true;
          break;
        }
      }
      if (!keep) lbs.del(name);
    }
    return line;
  }
}
