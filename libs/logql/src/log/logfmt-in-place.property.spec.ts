/**
 * `| logfmt` reading lines in place (`processRange` on a block's buffer, each search allowed to
 * run past its line and answer the next lines) extracts what it extracts from each line as a
 * Buffer of its own: random lines, a block of them back to back (keys cut across line ends
 * included), under hints for one name, for two, and none, with and without `--strict`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLabels } from '@logsvc/api';
import { LogfmtParserStage } from './logfmt';
import { NO_PARSER_HINTS } from './parser-hints';
import { StreamPipeline } from './pipeline';
import { groupingHints } from '../testing/parser-inputs';

const hintsFor = groupingHints;
const HINTS = [hintsFor(['level']), hintsFor(['level', 'msg']), NO_PARSER_HINTS];

const key = fc.constantFrom('level', 'xlevel', 'lvl', 'msg', 'a', 'level\u00a0', '\u00a0level', '');
const value = fc.oneof(
  fc.constantFrom('info', 'warn', 'error', '', '"x y"', '"level=debug"', 'a=b', 'é', '"open'),
  fc.stringMatching(/^[a-z]{0,6}$/),
);
const pair = fc
  .tuple(key, fc.constantFrom('=', ' ', '=='), value)
  .map(([k, sep, v]) => k + sep + v);
// Lines may start or end inside a key (`lev` + `el=x`): the next line's bytes follow directly.
const line = fc.oneof(
  fc
    .tuple(fc.array(pair, { maxLength: 4 }), fc.constantFrom(' ', '\t', '"', ''))
    .map(([ps, sep]) => ps.join(sep)),
  fc.constantFrom('lev', 'el=error', 'level', '=info', 'l', 'evel=warn', ''),
);

function run(sp: StreamPipeline, source: Buffer, start: number, end: number, inPlace: boolean) {
  const length = inPlace
    ? sp.runRange(0n, source, start, end)
    : (sp.run(0n, Buffer.from(source.subarray(start, end)))?.length ?? -1);
  return { length, labels: sp.builder.labels().key, err: sp.builder.getErr() };
}

describe('| logfmt in place', () => {
  it('extracts from each line of a block what it extracts from the line alone', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 25 }),
        fc.constantFrom(...HINTS.keys()),
        fc.boolean(),
        (lines, h, strict) => {
          const make = () => {
            const sp = new StreamPipeline(parseLabels('{app="web"}'), [
              new LogfmtParserStage({ strict }),
            ]);
            sp.builder.hints = HINTS[h];
            return sp;
          };
          const inPlace = make();
          const alone = make();
          const block = Buffer.from(lines.join(''));
          let start = 0;
          for (const text of lines) {
            const end = start + Buffer.byteLength(text);
            expect(run(inPlace, block, start, end, true), text).toEqual(
              run(alone, block, start, end, false),
            );
            start = end;
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
