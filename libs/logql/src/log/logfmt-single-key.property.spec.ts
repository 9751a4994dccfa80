/**
 * `| logfmt` under hints that want one letters-and-digits name (`sum by (level)`) finds that
 * key with one search and reads only its value (LogfmtKeyNeedles.locate), and keeps recent
 * values' strings (AsciiInterner). On sequences of random lines written into one reused buffer
 * (as pooled memory is), each line's label is the value of the first pair whose key sanitizes
 * to the name and whose value is not empty, as hinted parsing stops there.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelsToRecord, parseLabels } from '@logsvc/api';
import { LogfmtDecoder, LogfmtParserStage } from './logfmt';
import { newParserHints } from './parser-hints';
import { StreamPipeline } from './pipeline';
import { sanitizeLabelKey } from './sanitize';

const hints = newParserHints({
  stageLabels: [],
  groups: ['level'],
  without: false,
  noLabels: false,
  preserveError: false,
});

/** The value of the first pair giving `level`, as the hinted parse takes it. */
function firstLevel(line: Buffer): string | undefined {
  const dec = new LogfmtDecoder();
  dec.reset(line);
  while (!dec.eol()) {
    if (!dec.scanKeyval() || !dec.hasKey() || dec.valueIsEmpty()) continue;
    if (sanitizeLabelKey(dec.key(), true) === 'level') return dec.value();
  }
  return undefined;
}

const key = fc.constantFrom('level', 'xlevel', 'lvl', 'msg', 'a', 'level\u00a0', '\u00a0level');
const value = fc.oneof(
  fc.constantFrom('info', 'warn', 'error', 'inf', 'infos', '', '"x y"', '"level=debug"'),
  fc.constantFrom('a=b', 'é', 'x"y', '"a\\"b"', '"open', 'level=warn'),
  fc.stringMatching(/^[a-z]{0,6}$/),
);
const pair = fc
  .tuple(key, fc.constantFrom('=', ' ', '=='), value)
  .map(([k, sep, v]) => k + sep + v);
const line = fc
  .tuple(fc.array(pair, { maxLength: 5 }), fc.constantFrom(' ', '  ', '\t', '"', ''))
  .map(([ps, sep]) => ps.join(sep));

describe('| logfmt wanting one key', () => {
  it('gives the first non-empty value of that key, line after line in one buffer', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 30 }), (lines) => {
        const sp = new StreamPipeline(parseLabels('{app="web"}'), [new LogfmtParserStage()]);
        sp.builder.hints = hints;
        const pool = Buffer.alloc(512, 0x20);
        for (const text of lines) {
          const n = pool.write(text);
          const buf = pool.subarray(0, n);
          const got = labelsToRecord(sp.process(0n, buf)!.labels.labels);
          expect(got.level).toBe(firstLevel(Buffer.from(text)));
          pool.fill(0x41);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('reads the key after quotes and non-ASCII bytes too', () => {
    const sp = new StreamPipeline(parseLabels('{app="web"}'), [new LogfmtParserStage()]);
    sp.builder.hints = hints;
    const got = (text: string) => labelsToRecord(sp.process(0n, Buffer.from(text))!.labels.labels);
    expect(got('ts=1 level=info msg=x')).toEqual({ app: 'web', level: 'info' });
    expect(got('ts=1 level=info')).toEqual({ app: 'web', level: 'info' });
    expect(got('msg="level=warn" level=debug')).toEqual({ app: 'web', level: 'debug' });
    expect(got('m=é level=debug')).toEqual({ app: 'web', level: 'debug' });
    expect(got('loglevel=warn level=error')).toEqual({ app: 'web', level: 'error' });
    expect(got('level= level="a b"')).toEqual({ app: 'web', level: 'a b' });
    expect(got('level=info')).toEqual({ app: 'web', level: 'info' });
    expect(got('msg="x"level=warn')).toEqual({ app: 'web', level: 'warn' });
  });
});
