import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelsToRecord, parseLabels } from '@logsvc/api';
import { JsonExpressionParserStage, parseJsonPath } from './json-expr';
import { ParserHints } from './parser-hints';
import { JsonParserStage } from './json-parser';
import { LabelCategory } from './labels-builder';
import { Pipeline, type Stage } from './pipeline';
import { UnpackParserStage } from './unpack';

function run(stages: Stage[], line: string | Buffer, stream = '{}') {
  const r = new Pipeline(stages).forStream(parseLabels(stream)).process(0n, Buffer.from(line));
  if (r === null) throw new Error('dropped');
  return labelsToRecord(r.labels.labels);
}

const OBJECT_ERR = "Value looks like object, but can't find closing '}' symbol";
const jsonErr = (details: string) => ({ __error__: 'JSONParserErr', __error_details__: details });

describe('| json', () => {
  const rows: { name: string; line: string; stream?: string; want: Record<string, string> }[] = [
    {
      name: 'nested objects flattened with _',
      line: '{"app":"foo","namespace":"prod","pod":{"uuid":"foo","deployment":{"ref":"foobar"}}}',
      want: { app: 'foo', namespace: 'prod', pod_uuid: 'foo', pod_deployment_ref: 'foobar' },
    },
    {
      name: 'numbers verbatim',
      line: '{"counter":1, "price": {"_net_":5.56909}, "big": 1e10, "neg": -0.5}',
      want: { counter: '1', price__net_: '5.56909', big: '1e10', neg: '-0.5' },
    },
    {
      name: 'booleans',
      line: '{"ok":true,"next":{"err":false}}',
      want: { ok: 'true', next_err: 'false' },
    },
    {
      name: 'escaped string',
      line: '{"foo":"foo\\"bar\\n\\u00e9\\ud83d\\ude00"}',
      want: { foo: 'foo"bar\né😀' },
    },
    {
      // Loki 3.4's unescapeJSONString (its test "utf8 error rune").
      name: 'a replacement rune becomes a space',
      line: '{"counter":1,"foo":"\ufffd", "price": {"_net_":5.56909}}',
      want: { counter: '1', foo: ' ', price__net_: '5.56909' },
    },
    {
      name: 'an escaped replacement rune or lone surrogate becomes a space',
      line: '{"a":"x\\ufffdy","b":"p\\ud800q"}',
      want: { a: 'x y', b: 'p q' },
    },
    {
      name: 'arrays skipped',
      line: '{"counter":1, "price": {"net_":["10","20"]}}',
      want: { counter: '1' },
    },
    { name: 'nulls skipped', line: '{"a":null,"b":"x"}', want: { b: 'x' } },
    {
      name: 'invalid key chars',
      line: '{"cou-nter":1,"a.b":"c","é":"d"}',
      want: { cou_nter: '1', a_b: 'c', _: 'd' },
    },
    { name: 'leading digit', line: '{"1a":"x","o":{"2b":"y"}}', want: { _1a: 'x', o_2b: 'y' } },
    { name: 'escaped key', line: '{"\\u0061b":"1"}', want: { ab: '1' } },
    { name: 'key with spaces trimmed', line: '{" k ":"v"}', want: { k: 'v' } },
    { name: 'empty object', line: '{}', want: {} },
    { name: 'trailing bytes ignored', line: '{"a":"b"} trailing', want: { a: 'b' } },
    { name: 'trailing comma tolerated', line: '{"a":"b",}', want: { a: 'b' } },
    { name: 'first duplicate wins', line: '{"a":"1","a":"2"}', want: { a: '1' } },
    {
      name: 'stream label clash gets _extracted',
      line: '{"app":"foo","next":{"err":false}}',
      stream: '{app="bar"}',
      want: { app: 'bar', app_extracted: 'foo', next_err: 'false' },
    },
    { name: 'not an object', line: 'foo', want: jsonErr(OBJECT_ERR) },
    { name: 'bad member', line: '{n}', want: jsonErr(OBJECT_ERR) },
    { name: 'empty line', line: '', want: jsonErr(OBJECT_ERR) },
    { name: 'only a brace', line: '{', want: jsonErr('Malformed JSON error') },
    {
      name: 'unterminated string',
      line: '{"a":"b',
      want: jsonErr("Value is string, but can't find closing '\"' symbol"),
    },
    { name: 'unknown value', line: '{"a":tru}', want: jsonErr('Unknown value type') },
    {
      name: 'unclosed nested object keeps earlier labels',
      line: '{"a":"1", "price": {"net_":["10","20"]',
      want: { a: '1', ...jsonErr(OBJECT_ERR) },
    },
    {
      name: 'unclosed array',
      line: '{"a":[1,2}',
      want: jsonErr("Value is array, but can't find closing ']' symbol"),
    },
  ];
  it.each(rows)('$name', ({ line, stream, want }) => {
    expect(run([new JsonParserStage()], line, stream)).toEqual({
      ...labelsToRecord(parseLabels(stream ?? '{}')),
      ...want,
    });
  });

  it('turns each invalid UTF-8 byte into one space, as Go decodes them (json, json a, unpack)', () => {
    // "a", a 3-byte sequence cut after its second byte, "b", a stray continuation byte, "c".
    const value = Buffer.from([0x61, 0xe2, 0x82, 0x62, 0x80, 0x63]);
    const line = Buffer.concat([Buffer.from('{"v":"'), value, Buffer.from('","w":"ok"}')]);
    expect(run([new JsonParserStage()], line)).toEqual({ v: 'a  b c', w: 'ok' });
    expect(
      run([new JsonExpressionParserStage([{ identifier: 'v', expression: 'v' }])], line),
    ).toEqual({ v: 'a  b c' });
    const packed = Buffer.concat([Buffer.from('{"_entry":"x","v":"'), value, Buffer.from('"}')]);
    expect(run([new UnpackParserStage()], packed)).toEqual({ v: 'a  b c' });
  });

  it('does not re-extract a key an earlier stage extracted on the same entry', () => {
    const earlier: Stage = {
      process: (_ts, line, lbs) => {
        lbs.set(LabelCategory.Parsed, 'level', 'from-first');
        return line;
      },
    };
    expect(run([earlier, new JsonParserStage()], '{"level":"info","x":"1"}')).toEqual({
      level: 'from-first',
      x: '1',
    });
  });

  it('with parser hints extracts just the required labels, and stops reading once it has them', () => {
    const sut = new JsonParserStage();
    const hints = new ParserHints(new Set(['level', 'req_user_id', 'app_extracted']), false, false);
    const hinted = (line: string) => {
      const sp = new Pipeline([sut]).forStream(parseLabels('{app="b"}'));
      sp.builder.hints = hints;
      return labelsToRecord(sp.process(0n, Buffer.from(line))!.labels.labels);
    };
    const line =
      '{"level":"info","msg":"m","req":{"user":{"id":7},"path":"/"},"other":{"x":1},"app":"a"}';
    expect(hinted(line)).toEqual({
      app: 'b',
      level: 'info',
      req_user_id: '7',
      app_extracted: 'a',
    });
    // Everything required comes before the malformed tail, which is then never read.
    expect(hinted('{"app":"a","level":"x","req":{"user":{"id":1}}, oops')).toEqual({
      app: 'b',
      level: 'x',
      req_user_id: '1',
      app_extracted: 'a',
    });
  });

  it('survives deep nesting', () => {
    const line = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    const labels = run([new JsonParserStage()], line);
    expect(labels.__error__).toBeUndefined();
  });

  it('never throws on arbitrary bytes or JSON-like text', () => {
    const stages = [
      new JsonParserStage(),
      new JsonExpressionParserStage([{ identifier: 'x', expression: 'a.b[0]' }]),
      new UnpackParserStage(),
    ];
    const sp = new Pipeline(stages).forStream([]);
    const jsonish = fc
      .tuple(fc.json({ maxDepth: 4 }), fc.nat(), fc.nat({ max: 3 }), fc.string({ maxLength: 3 }))
      .map(([j, at, cut, ins]) => {
        const i = j.length === 0 ? 0 : at % j.length;
        return Buffer.from(j.slice(0, i) + ins + j.slice(i + cut));
      });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
          jsonish,
        ),
        (line) => {
          sp.process(0n, line);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('| json with parameters', () => {
  const rows: { params: [string, string][]; line: string; want: Record<string, string> }[] = [
    { params: [['app', 'app']], line: '{"app":"foo"}', want: { app: 'foo' } },
    {
      params: [
        ['uuid', 'pod.uuid'],
        ['ref', 'pod.deployment.ref'],
        ['miss', 'pod.nope'],
      ],
      line: '{"pod":{"uuid":"foo","deployment":{"ref":"foobar"}}}',
      want: { uuid: 'foo', ref: 'foobar', miss: '' },
    },
    {
      params: [
        ['first', 'list[0]'],
        ['second', 'list[1].name'],
        ['q', '["a key"]'],
      ],
      line: '{"list":["x",{"name":"y"}],"a key":"z"}',
      want: { first: 'x', second: 'y', q: 'z' },
    },
    {
      params: [
        ['obj', 'pod'],
        ['arr', 'list'],
        ['n', 'nul'],
        ['num', 'n'],
      ],
      line: '{"pod":{"a": 1},"list":[1, 2],"nul":null,"n":1.5}',
      want: { obj: '{"a": 1}', arr: '[1, 2]', n: '', num: '1.5' },
    },
    { params: [['s', 'msg']], line: '{"msg":"a\\"b"}', want: { s: 'a"b' } },
    { params: [['x', 'x']], line: 'not json', want: { __error__: 'JSONParserErr' } },
    { params: [['top', '[1]']], line: '["a","b"]', want: { top: 'b' } },
  ];
  it.each(rows)('$params on $line', ({ params, line, want }) => {
    const stage = new JsonExpressionParserStage(
      params.map(([identifier, expression]) => ({ identifier, expression })),
    );
    expect(run([stage], line)).toEqual(want);
  });

  // Loki scans with jsonparser's EachKey: what is reachable before the damage is kept, and only
  // a requested value that cannot be read sets the error.
  const damaged: { params: [string, string][]; line: string; want: Record<string, string> }[] = [
    {
      params: [
        ['a', 'a'],
        ['c', 'b.c'],
        ['d', 'b.d'],
      ],
      line: '{"a":"x","b":{"c":"y"',
      want: { a: 'x', c: 'y', d: '' },
    },
    {
      params: [['app', 'app']],
      line: '{"app":{"name":"great \\"loki\\""}',
      want: { app: '{"name":"great \\"loki\\""}' },
    },
    {
      params: [
        ['a', 'a'],
        ['b', 'b'],
      ],
      line: '{"a":1,"junk":tru,"b":"ok"}',
      want: { a: '1', b: 'ok' },
    },
    {
      params: [
        ['a', 'a'],
        ['b', 'b'],
      ],
      line: '{"a":"x","b":"tru',
      want: { a: 'x', b: '', ...jsonErr("Value is string, but can't find closing '\"' symbol") },
    },
    {
      params: [
        ['whole', 'b'],
        ['c', 'b.c'],
      ],
      line: '{"b":{"c":1',
      want: { whole: '', c: '1', ...jsonErr(OBJECT_ERR) },
    },
    { params: [['a', 'a']], line: '{"a":nul}', want: { a: '', ...jsonErr('Unknown value type') } },
    { params: [['a', 'a']], line: '{"a":1} trailing junk', want: { a: '1' } },
    {
      params: [
        ['a', 'a'],
        ['x', 'x'],
      ],
      line: '{"a":1} "x":2',
      want: { a: '1', x: '', ...jsonErr('Malformed JSON error') },
    },
    {
      params: [
        ['a', 'a'],
        ['x', 'x'],
      ],
      line: '{"a":1} {"x":2}',
      want: { a: '1', x: '2' },
    },
    {
      params: [
        ['first', 'list[0]'],
        ['name', 'list[1].name'],
        ['third', 'list[2]'],
      ],
      line: '{"list":["x",{"name":"y"},"unterminated',
      want: { first: 'x', name: 'y', third: '' },
    },
    { params: [['a', 'a']], line: '"just a string"', want: { a: '' } },
  ];
  it.each(damaged)('$params on damaged $line', ({ params, line, want }) => {
    const stage = new JsonExpressionParserStage(
      params.map(([identifier, expression]) => ({ identifier, expression })),
    );
    expect(run([stage], line)).toEqual(want);
  });

  it('suffixes a stream label name with _extracted', () => {
    const stage = new JsonExpressionParserStage([{ identifier: 'app', expression: 'app' }]);
    expect(run([stage], '{"app":"foo"}', '{app="bar"}')).toEqual({
      app: 'bar',
      app_extracted: 'foo',
    });
  });

  it.each([
    ['1abc', 'a', "invalid extracted label name '1abc'"],
    ['a', 'a..b', 'cannot parse expression [a..b]: syntax error: unexpected DOT'],
    // Loki 3.4.6's texts, read from its binary.
    [
      'a',
      'a[',
      'cannot parse expression [a[]: syntax error: unexpected $end, expecting STRING or INDEX',
    ],
    ['a', 'a["x"', 'cannot parse expression [a["x"]: syntax error: unexpected $end, expecting RSB'],
    [
      'a',
      'a[1.5]',
      'cannot parse expression [a[1.5]]: syntax error: unexpected $end, expecting STRING or INDEX',
    ],
    [
      'a',
      '.a',
      'cannot parse expression [.a]: syntax error: unexpected DOT, expecting LSB or FIELD',
    ],
    ['a', 'a.0', 'cannot parse expression [a.0]: syntax error: unexpected $end, expecting FIELD'],
    ['a', 'a b', 'cannot parse expression [a b]: syntax error: unexpected FIELD'],
    ['a', 'my-key', 'cannot parse expression [my-key]: unexpected char -'],
    [
      'a',
      '"a"',
      'cannot parse expression ["a"]: syntax error: unexpected STRING, expecting LSB or FIELD',
    ],
  ])('rejects %s=%j', (identifier, expression, message) => {
    expect(() => new JsonExpressionParserStage([{ identifier, expression }])).toThrow(message);
  });

  it('reads fields, quoted keys and indexes as Loki does', () => {
    expect(parseJsonPath('a.b[0]["c d"]')).toEqual(['a', 'b', 0, 'c d']);
    expect(parseJsonPath(' [2] . x_1 ')).toEqual([2, 'x_1']);
    // A quoted key ends at `"` or `]`, so this one swallows the bracket that should close it.
    expect(() => parseJsonPath('a["k]')).toThrow('unexpected $end, expecting RSB');
  });
});
