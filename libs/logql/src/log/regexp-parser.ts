/**
 * `| regexp "re"`: the named groups of the first match become labels; no match leaves the
 * entry unchanged. At least one named group is required and names must be valid and unique.
 */
import { isValidLabelName } from '@logsvc/api';
import { StageBuildError } from './errors';
import { LabelCategory, type LabelsBuilder } from './labels-builder';
import type { Stage } from './pipeline';
import { compileRegex, type CompiledRegex } from './regex';

export class RegexpParserStage implements Stage {
  private readonly re: CompiledRegex;
  private readonly names: readonly string[];

  constructor(readonly pattern: string) {
    // A name used twice compiles, as in Go, and is refused below as Loki refuses it.
    this.re = compileRegex(pattern);
    const names = this.re.groupNames.filter((n) => n !== '');
    if (names.length === 0)
      throw new StageBuildError('at least one named capture must be supplied');
    const seen = new Set<string>();
    for (const n of names) {
      if (!isValidLabelName(n)) throw new StageBuildError(`invalid extracted label name '${n}'`);
      if (seen.has(n)) throw new StageBuildError(`duplicate extracted label name '${n}'`);
      seen.add(n);
    }
    this.names = names;
  }

  process(_ts: bigint, line: Buffer, lbs: LabelsBuilder): Buffer {
    if (lbs.parsersExtractNothing()) return line;
    const groups = this.re.namedGroups(line);
    if (groups === null) return line;
    for (const n of this.names) {
      const value = groups[n];
      const name = lbs.extractedName(n);
      // Loki's regexp parser honours the hints' label list but never skips a line as a whole.
      if (!lbs.wants(name) || !lbs.shouldExtract(name)) continue;
      // A group that did not take part in the match reads as empty, as Go's FindSubmatch.
      lbs.set(LabelCategory.Parsed, name, value === undefined ? '' : value.toString('utf8'));
    }
    return line;
  }
}
