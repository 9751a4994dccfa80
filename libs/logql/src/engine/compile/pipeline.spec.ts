import { describe, expect, it } from 'vitest';
import { labelsFromRecord, parseLabels } from '@logsvc/api';
import type { LogSelectorExpr } from '../../syntax/ast';
import { ParseError } from '../../syntax/errors';
import { parseExpr } from '../../syntax/parser';
import { printStage } from '../../syntax/printer';
import { compilePipeline } from './pipeline';
import { reorderStages } from './reorder';

function logExpr(query: string): LogSelectorExpr {
  const e = parseExpr(query);
  if (e.kind !== 'LogSelectorExpr') throw new Error('not a log query');
  return e;
}

/** Runs a query's pipeline over lines of the stream `{app="api"}`. */
function run(query: string, lines: string[], stream = '{app="api"}'): string[] {
  const sp = compilePipeline(logExpr(query)).pipeline.forStream(parseLabels(stream));
  const out: string[] = [];
  lines.forEach((line, i) => {
    const r = sp.process(BigInt(i), Buffer.from(line));
    if (r !== null) out.push(`${r.labels.toString()} ${r.line.toString()}`);
  });
  return out;
}

describe('reorderStages', () => {
  const order = (q: string): string => reorderStages(logExpr(q).stages).map(printStage).join(' ');

  it.each([
    ['{a="b"} | json |= "x" | logfmt != "y"', '|= "x" != "y" | json | logfmt'],
    ['{a="b"} | json | level="error" |= "x"', '| json | level="error" |= "x"'],
    ['{a="b"} | line_format "{{.a}}" |= "x"', '| line_format "{{.a}}" |= "x"'],
    ['{a="b"} | json | unpack |= "x"', '| json | unpack |= "x"'],
    ['{a="b"} | decolorize |= "x"', '|= "x" | decolorize'],
    ['{a="b"} | drop a |= "x" | keep b |~ "y"', '|= "x" |~ "y" | drop a | keep b'],
  ])('%s runs as %s', (q, expected) => {
    expect(order(q)).toBe(expected);
  });
});

describe('compilePipeline', () => {
  it('returns the selector matchers as plain matchers', () => {
    const { matchers, pipeline } = compilePipeline(logExpr('{app="api", env=~"prod|dev"}'));
    expect(matchers).toEqual([
      { type: '=', name: 'app', value: 'api' },
      { type: '=~', name: 'env', value: 'prod|dev' },
    ]);
    expect(pipeline.isNoop()).toBe(true);
  });

  it('runs line filters with or-chains, negations and regexes', () => {
    const lines = ['GET /a 200', 'POST /a 500', 'GET /b 404', 'PUT /c 200'];
    expect(run('{app="api"} |= "GET" or "PUT" != "/b"', lines)).toEqual([
      '{app="api"} GET /a 200',
      '{app="api"} PUT /c 200',
    ]);
    expect(run('{app="api"} |~ "(?i)post|put" !~ "5\\\\d\\\\d"', lines)).toEqual([
      '{app="api"} PUT /c 200',
    ]);
    expect(run('{app="api"} != "GET" or "PUT"', lines)).toEqual(['{app="api"} POST /a 500']);
  });

  it('runs pattern and ip() line filters', () => {
    const lines = ['10.0.0.5 GET /a', '192.168.1.1 GET /b', 'no address here'];
    expect(run('{app="api"} |= ip("10.0.0.0/8")', lines)).toEqual(['{app="api"} 10.0.0.5 GET /a']);
    expect(run('{app="api"} != ip("10.0.0.0/8")', lines)).toHaveLength(2);
    expect(run('{app="api"} |> "<_> GET /b"', lines)).toEqual(['{app="api"} 192.168.1.1 GET /b']);
  });

  it('extracts labels with json, logfmt, regexp, pattern and unpack', () => {
    expect(run('{app="api"} | json', ['{"level":"info","req":{"id":7}}'])).toEqual([
      '{app="api", level="info", req_id="7"} {"level":"info","req":{"id":7}}',
    ]);
    expect(
      run('{app="api"} | json lvl="level", id="req.id"', ['{"level":"x","req":{"id":7}}']),
    ).toEqual(['{app="api", id="7", lvl="x"} {"level":"x","req":{"id":7}}']);
    expect(run('{app="api"} | logfmt --keep-empty', ['a=1 b= app=web'])).toEqual([
      '{a="1", app="api", app_extracted="web", b=""} a=1 b= app=web',
    ]);
    expect(run('{app="api"} | logfmt --strict x="a"', ['a=1 b'])).toEqual([
      '{app="api", x="1"} a=1 b',
    ]);
    expect(run('{app="api"} | regexp "(?P<method>\\\\w+) (?P<path>\\\\S+)"', ['GET /x'])).toEqual([
      '{app="api", method="GET", path="/x"} GET /x',
    ]);
    expect(run('{app="api"} | pattern "<method> <path> <_>"', ['PUT /y 200'])).toEqual([
      '{app="api", method="PUT", path="/y"} PUT /y 200',
    ]);
    expect(run('{app="api"} | unpack', ['{"_entry":"inner","pod":"p1"}'])).toEqual([
      '{app="api", pod="p1"} inner',
    ]);
  });

  it('sets __error__ labels on parse failures and keeps the line', () => {
    expect(run('{app="api"} | json', ['not json'])).toEqual([
      expect.stringMatching(
        /^\{__error__="JSONParserErr", __error_details__=".+", app="api"\} not json$/,
      ),
    ]);
    expect(run('{app="api"} | json | __error__=""', ['not json', '{"a":"1"}'])).toEqual([
      '{a="1", app="api"} {"a":"1"}',
    ]);
  });

  it('applies label filters of every kind with and/or', () => {
    const lines = [
      'status=200 took=5ms size=1KB addr=10.1.1.1',
      'status=500 took=2s size=20MB addr=8.8.8.8',
      'status=404 took=30ms size=300B addr=10.2.2.2',
    ];
    const q = (f: string): number => run(`{app="api"} | logfmt | ${f}`, lines).length;
    expect(q('status >= 400')).toBe(2);
    expect(q('took > 1s')).toBe(1);
    expect(q('size < 2KB')).toBe(2);
    expect(q('addr = ip("10.0.0.0/8")')).toBe(2);
    expect(q('status=~"2.."')).toBe(1);
    expect(q('status=200 or took > 10ms and size > 1MB')).toBe(2);
    expect(q('status > 100, size > 1MB')).toBe(1);
  });

  it('line filters after a line_format see the new line', () => {
    const out = run('{app="api"} | logfmt | line_format "{{.msg | ToUpper}}" |= "HELLO"', [
      'msg=hello',
      'msg=bye',
    ]);
    expect(out).toEqual(['{app="api", msg="hello"} HELLO']);
  });

  it('formats labels, drops and keeps them, decolorizes lines', () => {
    expect(
      run('{app="api"} | logfmt | label_format who=user, greeting="hi {{.who}}"', ['user=bob']),
    ).toEqual(['{app="api", greeting="hi bob", who="bob"} user=bob']);
    expect(run('{app="api"} | logfmt | drop a, b="2"', ['a=1 b=2 c=3'])).toEqual([
      '{app="api", c="3"} a=1 b=2 c=3',
    ]);
    expect(run('{app="api"} | logfmt | keep a', ['a=1 b=2'])).toEqual(['{a="1"} a=1 b=2']);
    expect(run('{app="api"} | decolorize', ['\u001b[31mred\u001b[0m'])).toEqual([
      '{app="api"} red',
    ]);
  });

  it('keeps structured metadata as labels', () => {
    const sp = compilePipeline(logExpr('{app="api"} | trace="t1"')).pipeline.forStream(
      parseLabels('{app="api"}'),
    );
    const r = sp.process(1n, Buffer.from('x'), labelsFromRecord({ trace: 't1' }));
    expect(r?.labels.toString()).toBe('{app="api", trace="t1"}');
    expect(sp.process(2n, Buffer.from('x'), labelsFromRecord({ trace: 't2' }))).toBeNull();
  });

  it('reports a stage that cannot be built as a parse error naming the stage', () => {
    const fail = (q: string): string => {
      try {
        compilePipeline(logExpr(q));
      } catch (err) {
        expect(err).toBeInstanceOf(ParseError);
        return (err as Error).message;
      }
      throw new Error('no error');
    };
    // The parser refuses such a regexp stage (as Loki's does); a tree built by hand still
    // fails here.
    const noGroups = { ...logExpr('{app="api"}') };
    const regexp = { kind: 'RegexpParser' as const, pos: { start: 0, end: 0 }, regex: '(.*)' };
    expect(() => compilePipeline({ ...noGroups, stages: [regexp] })).toThrow(
      new ParseError(`stage '| regexp "(.*)"' : at least one named capture must be supplied`),
    );
    expect(fail('{app="api"} |= ip("nope")')).toBe(
      `parse error : stage '|= ip("nope")' : ip: invalid pattern: "nope"`,
    );
    expect(fail('{app="api"} | label_format a="x", a="y"')).toMatch(
      /multiple label name 'a' not allowed in a single format operation$/,
    );
  });

  it('names a failing stage as Loki prints it: lists joined by bare commas, params written out', () => {
    const message = (q: string): string => {
      try {
        compilePipeline(logExpr(q));
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error('no error');
    };
    expect(message('{app="api"} | label_format c=a, b="{{ .a"')).toBe(
      `parse error : stage '| label_format c=a,b="{{ .a"' : invalid template for label 'b': template: label:1: unclosed action`,
    );
    expect(message('{app="api"} | json a, b="c[" ')).toMatch(
      /^parse error : stage '\| json a="a",b="c\["' : /,
    );
  });

  it('derives the literal a source may prefilter on from leading filters', () => {
    const lit = (q: string): string | undefined =>
      compilePipeline(logExpr(q)).lineContains?.toString();
    expect(lit('{app="api"} |= "needle"')).toBe('needle');
    expect(lit('{app="api"} | json |= "ab" |= "longer"')).toBe('longer');
    expect(lit('{app="api"} |~ "err.*timeout"')).toBe('timeout');
    expect(lit('{app="api"} |= "a" or "b"')).toBeUndefined();
    expect(lit('{app="api"} != "x"')).toBeUndefined();
    expect(lit('{app="api"} | line_format "x" |= "y"')).toBeUndefined();
  });

  it('derives literals of which a line must hold one when no single literal is required', () => {
    const any = (q: string): string[] | undefined =>
      compilePipeline(logExpr(q)).lineContainsAny?.map((b) => b.toString());
    expect(any('{app="api"} |~ "timeout|declined"')).toEqual(['timeout', 'declined']);
    expect(any('{app="api"} |= "a" or "b"')).toEqual(['a', 'b']);
    expect(any('{app="api"} |= "a" or "b" | json |~ "c|d"')).toEqual(['a', 'b']);
    expect(any('{app="api"} != "x" |~ "c|d"')).toEqual(['c', 'd']);
    // A single required literal is preferred; it says more.
    expect(any('{app="api"} |~ "c|d" |= "needle"')).toBeUndefined();
    expect(
      compilePipeline(logExpr('{app="api"} |~ "c|d" |= "needle"')).lineContains?.toString(),
    ).toBe('needle');
    // An empty alternative or any regex syntax: no prefilter.
    expect(any('{app="api"} |~ "a|"')).toBeUndefined();
    expect(any('{app="api"} |= "a" or ""')).toBeUndefined();
    expect(any('{app="api"} |~ "a.b|c"')).toBeUndefined();
    expect(any('{app="api"} |~ "(?i)a|b"')).toBeUndefined();
    expect(any('{app="api"} !~ "a|b"')).toBeUndefined();
    expect(any('{app="api"} |~ "a" or "b|c"')).toBeUndefined();
    // Line filters run before parsers (Loki's reordering), so they still prefilter.
    expect(any('{app="api"} | json |~ "a|b"')).toEqual(['a', 'b']);
    expect(any('{app="api"} | line_format "x" |~ "a|b"')).toBeUndefined();
    expect(any('{app="api"} |= ip("10.0.0.1") or "x"')).toBeUndefined();
  });
});
