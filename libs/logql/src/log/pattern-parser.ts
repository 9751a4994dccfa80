/**
 * `| pattern "<ip> - <_> [<ts>] ..."`: named captures become labels. A pattern starting with
 * a literal only matches lines starting with it; a capture whose next literal is missing takes
 * the rest of the line. A line that does not match gets no labels and is kept.
 */
import { isValidLabelName } from '@logsvc/api';
import { StageBuildError } from './errors';
import { LabelCategory, type LabelsBuilder } from './labels-builder';
import { PatternExtractor } from './pattern';
import type { Stage } from './pipeline';

export class PatternParserStage implements Stage {
  private readonly extractor: PatternExtractor;
  private line: Buffer = Buffer.alloc(0);
  private lbs!: LabelsBuilder;
  private readonly onCapture = (i: number, start: number, end: number): void => {
    const n = this.extractor.names[i];
    const name = this.lbs.extractedName(n);
    if (!this.lbs.wants(name) || !this.lbs.shouldExtract(name)) return;
    this.lbs.set(LabelCategory.Parsed, name, this.line.toString('utf8', start, end));
  };

  constructor(readonly pattern: string) {
    this.extractor = new PatternExtractor(pattern);
    for (const n of this.extractor.names) {
      if (!isValidLabelName(n)) throw new StageBuildError(`invalid capture label name '${n}'`);
    }
  }

  process(_ts: bigint, line: Buffer, lbs: LabelsBuilder): Buffer {
    if (lbs.skipParsers() || lbs.parsersExtractNothing()) return line;
    this.line = line;
    this.lbs = lbs;
    this.extractor.match(line, this.onCapture);
    return line;
  }
}
