import { describe, expect, it } from 'vitest';
import { labelsToRecord, parseLabels } from '@logsvc/api';
import { LogfmtExpressionParserStage, LogfmtParserStage, type LogfmtOptions } from './logfmt';
import { Pipeline, type Stage } from './pipeline';

function run(stage: Stage, line: string | Buffer, stream = '{}') {
  const r = new Pipeline([stage]).forStream(parseLabels(stream)).process(0n, Buffer.from(line));
  if (r === null) throw new Error('dropped');
  return labelsToRecord(r.labels.labels);
}

const strict: LogfmtOptions = { strict: true };
const logfmtErr = (details: string) => ({
  __error__: 'LogfmtParserErr',
  __error_details__: details,
});

describe('| logfmt', () => {
  const rows: {
    name: string;
    line: string | Buffer;
    opts?: LogfmtOptions;
    want: Record<string, string>;
  }[] = [
    { name: 'pairs', line: 'foo=bar bar=10ms', want: { foo: 'bar', bar: '10ms' } },
    {
      name: 'quoted with escapes',
      line: 'foo="foo \\"bar\\"" n="a\\nb"',
      want: { foo: 'foo "bar"', n: 'a\nb' },
    },
    {
      name: 'quoted without escapes',
      line: 'msg="hello world" x=1',
      want: { msg: 'hello world', x: '1' },
    },
    { name: 'key sanitized', line: 'bar-baz=1 1st=2', want: { bar_baz: '1', _1st: '2' } },
    { name: 'last duplicate wins (Loki 3.4)', line: 'a=1 a=2', want: { a: '2' } },
    { name: 'bare key and empty value skipped', line: 'foo= bar=1 baz', want: { bar: '1' } },
    {
      name: 'keep empty',
      line: 'foo= bar=1 baz q=""',
      opts: { keepEmpty: true },
      want: { foo: '', bar: '1', baz: '', q: '' },
    },
    { name: 'malformed pair skipped', line: 'status==value level=error', want: { level: 'error' } },
    { name: 'quote in key skipped', line: 'a"b=c d=e', want: { d: 'e' } },
    { name: 'unterminated quote', line: 'a=1 level="unclosed status=500', want: { a: '1' } },
    {
      // Loki 3.4's LogfmtParser maps utf8.RuneError to a space (its test "utf8 error rune").
      name: 'each invalid UTF-8 byte of a value becomes a space',
      line: Buffer.from([
        0x61, 0x3d, 0xff, 0x20, 0x62, 0x3d, 0x31, 0x20, 0x63, 0x3d, 0x78, 0xe2, 0x82,
      ]),
      opts: { keepEmpty: true },
      want: { a: ' ', b: '1', c: 'x  ' },
    },
    {
      name: 'a replacement rune becomes a space',
      line: 'buzz=foo bar=\ufffdf',
      want: { buzz: 'foo', bar: ' f' },
    },
    {
      name: 'strict: unexpected =',
      line: 'status==value level=error',
      opts: strict,
      want: logfmtErr("logfmt syntax error at pos 8 : unexpected '='"),
    },
    {
      name: 'strict: unterminated quote',
      line: 'level="unclosed status=500',
      opts: strict,
      want: logfmtErr('logfmt syntax error at pos 27 : unterminated quoted value'),
    },
    {
      name: 'strict: keeps pairs before the error',
      line: 'a=1 "b=2',
      opts: strict,
      want: { a: '1', ...logfmtErr("logfmt syntax error at pos 5 : unexpected '\"'") },
    },
    {
      name: 'strict: key starting with =',
      line: '=x',
      opts: strict,
      want: logfmtErr("logfmt syntax error at pos 1 : unexpected '='"),
    },
    {
      name: 'strict: bad escape',
      line: 'a="\\q"',
      opts: strict,
      want: logfmtErr('logfmt syntax error at pos 7 : invalid quoted value'),
    },
  ];
  it.each(rows)('$name', ({ line, opts, want }) => {
    expect(run(new LogfmtParserStage(opts), line)).toEqual(want);
  });

  it('suffixes a stream label name with _extracted', () => {
    expect(run(new LogfmtParserStage(), 'app=foo x=1', '{app="bar"}')).toEqual({
      app: 'bar',
      app_extracted: 'foo',
      x: '1',
    });
  });
});

describe('| logfmt with parameters', () => {
  const stage = (params: [string, string][], opts?: LogfmtOptions) =>
    new LogfmtExpressionParserStage(
      params.map(([identifier, expression]) => ({ identifier, expression })),
      opts,
    );

  it('extracts only the listed keys, renamed, and creates missing ones empty', () => {
    expect(
      run(
        stage([
          ['lvl', 'level'],
          ['missing', 'nope'],
        ]),
        'level=warn other=x',
      ),
    ).toEqual({
      lvl: 'warn',
      missing: '',
    });
  });

  it('accepts a bare key as its own label', () => {
    expect(run(stage([['host', 'host']]), 'host=a b=c')).toEqual({ host: 'a' });
  });

  it('does not pre-create a label that is a stream label', () => {
    expect(run(stage([['app', 'app']]), 'x=1', '{app="bar"}')).toEqual({ app: 'bar' });
    expect(run(stage([['app', 'app']]), 'app=foo', '{app="bar"}')).toEqual({
      app: 'bar',
      app_extracted: 'foo',
    });
  });

  it('reports strict errors', () => {
    expect(run(stage([['a', 'a']], strict), 'a=1 b==2')).toEqual({
      a: '1',
      ...logfmtErr("logfmt syntax error at pos 7 : unexpected '='"),
    });
  });

  it('rejects invalid label names', () => {
    expect(() => stage([['1x', 'a']])).toThrow("invalid extracted label name '1x'");
  });
});
