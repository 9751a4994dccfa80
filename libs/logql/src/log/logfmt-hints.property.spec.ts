/**
 * `| logfmt` under parser hints skips lines where no wanted name stands before `=`
 * (LogfmtKeyNeedles) and compares keys in place (ParserHints.mayWantKey). On random lines with
 * keys close to the wanted names, the wanted labels it extracts are those the parser extracts
 * without hints, and with `--strict` (no prefilter) the error is unhinted parsing's. (A wanted
 * key repeated in the line is left out: as in Loki 3.4, unhinted parsing keeps its last value
 * and hinted parsing stops at the first once every wanted label is there.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelsToRecord, parseLabels } from '@logsvc/api';
import { LogfmtDecoder, LogfmtParserStage, type LogfmtOptions } from './logfmt';
import { NO_PARSER_HINTS, type ParserHints } from './parser-hints';
import { StreamPipeline } from './pipeline';
import { groupingHints } from '../testing/parser-inputs';
import { sanitizeLabelKey } from './sanitize';

const hintsFor = groupingHints;

function extract(
  line: Buffer,
  hints: ParserHints,
  opts: LogfmtOptions,
  stream = '{app="web"}',
): Record<string, string> {
  const sp = new StreamPipeline(parseLabels(stream), [new LogfmtParserStage(opts)]);
  sp.builder.hints = hints;
  return labelsToRecord(sp.process(0n, line)!.labels.labels);
}

/** Whether a key the groups want (or its `_extracted` form) appears twice in the line. */
function repeatsWanted(line: Buffer, groups: readonly string[]): boolean {
  const dec = new LogfmtDecoder();
  dec.reset(line);
  const seen = new Set<string>();
  while (!dec.eol()) {
    if (!dec.scanKeyval() || !dec.hasKey()) continue;
    const name = sanitizeLabelKey(dec.key(), true);
    if (!groups.includes(name) && !groups.includes(name + '_extracted')) continue;
    if (seen.has(name)) return true;
    seen.add(name);
  }
  return false;
}

const key = fc.oneof(
  fc.constantFrom('level', 'lvl', 'status', 'levels', 'xlevel', 'lev', 'level_extracted'),
  fc.constantFrom('Level', 'lével', '\u00a0level', 'level\u00a0', '\ufefflevel', 'le-vel'),
  fc.constantFrom('"level"', 'level:', '{"level"', 'status2', '2status', 'a'),
  fc.string({ maxLength: 5 }),
);
const value = fc.constantFrom('info', '', '"x y"', '"a\\"b"', '"open', '=', 'a=b', '"\\q"', 'é');
const pair = fc
  .tuple(key, fc.constantFrom('=', ' ', '', '=='), value)
  .map(([k, sep, v]) => k + sep + v);
const line = fc
  .tuple(fc.array(pair, { maxLength: 6 }), fc.constantFrom(' ', '  ', '\t', '"'))
  .map(([ps, sep]) => Buffer.from(ps.join(sep)));
const groups = fc.constantFrom<string[]>(
  ['level'],
  ['status'],
  ['level', 'status'],
  ['level_extracted'],
  ['lvl', 'app'],
  ['status2'],
);

describe('| logfmt under hints', () => {
  it('extracts the wanted labels unhinted parsing extracts', () => {
    fc.assert(
      fc.property(line, groups, fc.boolean(), fc.boolean(), (l, g, keepEmpty, level) => {
        fc.pre(!repeatsWanted(l, g));
        const opts = { keepEmpty };
        // With `level` a stream label too, a parsed `level` is stored as `level_extracted`.
        const stream = level ? '{app="web", level="warn"}' : '{app="web"}';
        const hinted = extract(l, hintsFor(g), opts, stream);
        const all = extract(l, NO_PARSER_HINTS, opts, stream);
        const wanted = (rec: Record<string, string>) =>
          Object.fromEntries(
            Object.entries(rec).filter(
              ([n]) => g.includes(n) || n === 'app' || (level && n === 'level'),
            ),
          );
        expect(wanted(hinted)).toEqual(wanted(all));
      }),
      { numRuns: 3000 },
    );
  });

  it('with --strict, sets the error unhinted parsing sets unless it stopped before it', () => {
    fc.assert(
      fc.property(line, groups, (l, g) => {
        const hinted = extract(l, hintsFor(g), { strict: true });
        const all = extract(l, NO_PARSER_HINTS, { strict: true });
        // Loki's short-circuit: once the wanted labels are all there, the rest is not read.
        if (hinted.__error__ === undefined) return;
        expect(hinted.__error__).toBe(all.__error__);
        expect(hinted.__error_details__).toBe(all.__error_details__);
      }),
      { numRuns: 1000 },
    );
  });

  it('skips lines without a wanted key before `=`, and reads those with one', () => {
    const h = hintsFor(['level']);
    const got = (text: string) => extract(Buffer.from(text), h, {});
    expect(got('{"level":"info"}')).toEqual({ app: 'web' });
    expect(got('level')).toEqual({ app: 'web' });
    expect(got('msg="level=info" level=debug')).toEqual({ app: 'web', level: 'debug' });
    expect(got('msg="x" level=debug')).toEqual({ app: 'web', level: 'debug' });
    // Unicode space around a key is trimmed: `level\u00a0` is the key `level`.
    expect(got('\u00a0level=debug')).toEqual({ app: 'web', level: 'debug' });
    expect(got('level\u00a0=debug')).toEqual({ app: 'web', level: 'debug' });
  });
});
