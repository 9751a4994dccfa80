/**
 * `| decolorize`: removes ANSI escape sequences with the expression Loki uses (from
 * `acarl005/stripansi`), run on RE2 over the line's bytes. Lines without ESC (0x1B) or CSI
 * (U+009B) are returned as they are.
 */
import RE2 from 're2';
import type { LabelsBuilder } from './labels-builder';
import type { Stage } from './pipeline';

const ANSI =
  '[\\x{1B}\\x{9B}][[\\]()#;?]*(?:(?:(?:[a-zA-Z\\d]*(?:;[a-zA-Z\\d]*)*)?\\x{07})|(?:(?:\\d{1,4}(?:;\\d{0,4})*)?[\\dA-PRZcf-ntqry=><~]))';
const CSI = Buffer.from('\u009b');
const EMPTY = Buffer.alloc(0);

export class DecolorizeStage implements Stage {
  private readonly re = new RE2(ANSI, 'gu');

  process(_ts: bigint, line: Buffer, _lbs: LabelsBuilder): Buffer {
    if (line.indexOf(0x1b) < 0 && line.indexOf(CSI) < 0) return line;
    this.re.lastIndex = 0;
    return this.re.replace(line, EMPTY) as unknown as Buffer;
  }
}
