import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { equalFold } from '@logsvc/gocompat';
import {
  LEVEL_ALIASES,
  LevelDetector,
  levelFromHeuristics,
  levelFromSeverityNumber,
} from './level-detection';
import { DEFAULT_PUSH_LIMITS } from './limits';

const d = new LevelDetector(DEFAULT_PUSH_LIMITS.log_level_fields);
const line = (s: string) => d.fromLine(Buffer.from(s));

describe('detected_level from the line', () => {
  it.each([
    ['{"level":"WARNING","msg":"disk"}', 'warn'],
    ['  {"msg":"a \\"level\\": x","nested":{"level":"error"},"severity":"trc"} ', 'trace'],
    ['{"LEVEL":"fatal"}', 'fatal'],
    ['{"level":"notice","msg":"debug: x"}', 'debug'],
    ['ts=1 lvl=dbg msg="x y"', 'debug'],
    ['ts=1 msg="level=error" level=inf', 'info'],
    ['ts=1 LEVEL=critical', 'critical'],
    ['some INFO line', 'info'],
    ['disk ERROR', 'error'],
    ['WARN: low', 'warn'],
    ['CRITICAL: x', 'critical'],
    ['DEBUG: x', 'debug'],
    ['127.0.0.1 - GET /', 'unknown'],
    ['level=constructor', 'unknown'],
    ['x WARNING then info', 'info'],
    ['ts=1 level=notice', 'unknown'],
    ['ts=1 level=notice warn: x', 'warn'],
    ['{"level":"notice"}', 'unknown'],
    ['"level" in quotes, error', 'error'],
    ['10.0.0.1 - - "GET /debug HTTP/1.1" 200 12 rt=0.005', 'unknown'],
  ])('%s -> %s', (text, level) => {
    expect(line(text)).toBe(level);
  });

  it('maps OTLP severity numbers', () => {
    expect(['0', '1', '5', '9', '13', '17', '21', '30', 'x'].map(levelFromSeverityNumber)).toEqual([
      'unknown',
      'trace',
      'debug',
      'info',
      'warn',
      'error',
      'fatal',
      'unknown',
      'info',
    ]);
  });

  it('never throws on malformed JSON-looking lines', () => {
    for (const s of ['{', '{"level', '{"level":}', '{"a":[1,{"b":"}', '{"level" "x"}', '{x}'])
      expect(typeof line(s)).toBe('string');
  });
});

describe('detected_level from logfmt lines, as Loki decodes them', () => {
  // Loki's distributor reads pairs with its logfmt decoder until the first syntax error, keeps
  // what it found before it, and falls back to the keyword scan when no level value results.
  it.each([
    // A syntax error before the level field: the pairs give nothing, the keywords decide.
    ['a==b level=warn', 'unknown'],
    ['ts=1 msg=a"b level=dbg', 'unknown'],
    ['=x level=warn', 'unknown'],
    ['msg="a\\qb" level=dbg', 'unknown'],
    ['msg="unterminated level=error', 'error'],
    ['msg="unterminated level=dbg', 'unknown'],
    // A level found before the error is kept.
    ['lvl=warn msg="unterminated', 'warn'],
    ['lvl=info msg=a"b level=error', 'info'],
    ['lvl=dbg x==y level=error', 'debug'],
    // The field that comes first in log_level_fields wins, wherever it is in the line.
    ['lvl=info level=warn', 'warn'],
    ['lvl=info Severity=error', 'error'],
    // Keys that differ only in case are one field: the first of them in the line counts.
    ['Severity=info SEVERITY=error', 'info'],
    // Keys compare as Go's strings.EqualFold.
    ['LeVeL=dbg', 'debug'],
    ['\u017feverity=dbg', 'debug'],
    // A bare key or an empty value is a value too: no level, then the keyword scan.
    ['level lvl=warn', 'unknown'],
    ['level= lvl=warn', 'unknown'],
    ['level="" lvl=warn error', 'error'],
    // Quoted values are unescaped first.
    ['level="\\u0065rr"', 'error'],
    ['level="w\\\'rn"', 'unknown'],
  ])('%s -> %s', (text, level) => {
    expect(line(text)).toBe(level);
  });

  it('stops at a key with invalid UTF-8, as Go does', () => {
    const bytes = Buffer.concat([Buffer.from('k'), Buffer.from([0xff]), Buffer.from('=1 lvl=dbg')]);
    expect(d.fromLine(bytes)).toBe('unknown');
    expect(line('ké=1 lvl=dbg')).toBe('debug');
  });
});

describe('custom log_level_fields', () => {
  it('matches field names literally, including regex characters', () => {
    const custom = new LevelDetector(['log.level', 'sev(1)']);
    expect(custom.fromLine(Buffer.from('{"log.level":"warn"}'))).toBe('warn');
    expect(custom.fromLine(Buffer.from('{"logXlevel":"warn"}'))).toBe('unknown');
    expect(custom.fromLine(Buffer.from('a=1 sev(1)=dbg'))).toBe('debug');
    expect(new LevelDetector([]).fromLine(Buffer.from('level=error'))).toBe('error');
  });
});

describe('keys, values and lines without a level field', () => {
  /** A word with each letter in either case, sometimes with a character Go folds to a letter. */
  const caseVariant = (word: string) =>
    fc
      .array(fc.constantFrom('lower', 'upper', 'fold'), {
        minLength: word.length,
        maxLength: word.length,
      })
      .map((cases) =>
        [...word]
          .map((ch, i) => {
            if (cases[i] === 'upper') return ch.toUpperCase();
            if (cases[i] === 'fold' && ch === 's') return '\u017f';
            if (cases[i] === 'fold' && ch === 'k') return '\u212a';
            if (cases[i] === 'fold' && ch === 'i') return '\u0130';
            return ch;
          })
          .join(''),
      );
  const isAscii = (s: string) => [...s].every((ch) => ch.charCodeAt(0) < 0x80);
  const fieldNames = ['level', 'severity', 'lvl', 'kind', 'msg'];
  const key = fc.constantFrom(...fieldNames).chain(caseVariant);
  const value = fc
    .constantFrom(...LEVEL_ALIASES.keys(), 'notice', 'infos', 'er')
    .chain(caseVariant);
  const fields = ['severity', 'level', 'kind'];
  const detector = new LevelDetector(fields);

  it("compares logfmt keys with Go's EqualFold and values with the aliases up to case", () => {
    fc.assert(
      fc.property(key, value, (k, v) => {
        const text = `${k}=${v}`;
        const named = fields.some((f) => equalFold(k, f));
        const alias = isAscii(v) ? LEVEL_ALIASES.get(v.toLowerCase()) : undefined;
        const want = named && alias !== undefined ? alias : levelFromHeuristics(Buffer.from(text));
        expect(detector.fromLine(Buffer.from(text))).toBe(want);
      }),
      { numRuns: 2000 },
    );
  });

  it('compares JSON keys exactly and values with the aliases up to case', () => {
    fc.assert(
      fc.property(key, value, (k, v) => {
        const text = JSON.stringify({ [k]: v });
        const alias = isAscii(v) ? LEVEL_ALIASES.get(v.toLowerCase()) : undefined;
        const want =
          fields.includes(k) && alias !== undefined
            ? alias
            : levelFromHeuristics(Buffer.from(text));
        expect(detector.fromLine(Buffer.from(text))).toBe(want);
      }),
      { numRuns: 2000 },
    );
  });

  // Lines made of pieces that name level fields, look like JSON or logfmt, or carry keywords.
  const piece = fc.constantFrom(
    '{',
    '}',
    '"level"',
    '"level":',
    'level=',
    'LEVEL=',
    'Level=',
    'lvl=',
    '"severity":',
    '"',
    ':',
    '=',
    ',',
    ' ',
    'info',
    'warn',
    'error',
    'ERROR',
    'debug:',
    'warning',
    'x',
    'msg="a b"',
    '\\',
  );
  const lines = fc.array(piece, { maxLength: 12 }).map((p) => p.join(''));

  it('gives the heuristic level to a line that names no level field', () => {
    const lists = [
      DEFAULT_PUSH_LIMITS.log_level_fields,
      ['level'],
      ['lvl', 'level'],
      ['severity', 'LEVEL'],
    ];
    for (const list of lists) {
      const d = new LevelDetector(list);
      const json = new RegExp(list.map((f) => `"${f}"`).join('|'));
      const logfmt = new RegExp(list.map((f) => `${f}=`).join('|'), 'i');
      fc.assert(
        fc.property(lines, (text) => {
          const trimmed = text.trim();
          const isJson = trimmed.length > 1 && trimmed.startsWith('{') && trimmed.endsWith('}');
          fc.pre(!(isJson ? json : logfmt).test(text));
          expect(d.fromLine(Buffer.from(text))).toBe(levelFromHeuristics(Buffer.from(text)));
        }),
        { numRuns: 1500 },
      );
    }
  });
});
