import { describe, expect, it } from 'vitest';
import { labelsToRecord, parseLabels } from '@logsvc/api';
import { PatternParserStage } from './pattern-parser';
import { Pipeline, type Stage } from './pipeline';
import { RegexpParserStage } from './regexp-parser';
import { UnpackParserStage } from './unpack';

function run(stage: Stage, line: string, stream = '{}') {
  const r = new Pipeline([stage]).forStream(parseLabels(stream)).process(0n, Buffer.from(line));
  if (r === null) throw new Error('dropped');
  return { line: r.line.toString(), labels: labelsToRecord(r.labels.labels) };
}

describe('| regexp', () => {
  it('turns named groups into labels (docs example)', () => {
    const sut = new RegexpParserStage(
      '(?P<method>\\w+) (?P<path>[\\w|/]+) \\((?P<status>\\d+?)\\) (?P<duration>.*)',
    );
    expect(run(sut, 'POST /api/prom/api/v1/query_range (200) 1.5s').labels).toEqual({
      method: 'POST',
      path: '/api/prom/api/v1/query_range',
      status: '200',
      duration: '1.5s',
    });
  });

  it.each([
    ['no match keeps the entry without labels', '(?P<n>\\d+)', 'abc', {}],
    ['unanchored first match', '(?P<n>\\d+)', 'a 12 b 34', { n: '12' }],
    ['non-participating group is empty', '(?P<a>x)|(?P<b>y)', 'y', { a: '', b: 'y' }],
    ['works on UTF-8', 'é(?P<rest>.+)', 'café crème', { rest: ' crème' }],
    ['stream clash', '(?P<app>\\w+)', 'foo', { app: 'bar', app_extracted: 'foo' }],
  ])('%s', (_name, re, line, want) => {
    const stream = (want as Record<string, string>).app === 'bar' ? '{app="bar"}' : '{}';
    expect(run(new RegexpParserStage(re), line, stream).labels).toEqual(want);
  });

  it.each([
    ['(\\d+)', 'at least one named capture must be supplied'],
    ['(?P<a>x)(?P<a>y)', 'duplicate'],
    ['(?P<a', 'error parsing regexp'],
  ])('rejects %j', (re, message) => {
    expect(() => new RegexpParserStage(re)).toThrow(message);
  });
});

describe('| pattern', () => {
  it('extracts the docs example', () => {
    const line =
      '0.191.12.2 - - [10/Jun/2021:09:14:29 +0000] "GET /api/plugins/versioncheck HTTP/1.1" 200 2 "-" "Go-http-client/2.0" "13.76.247.102, 34.120.177.193" "TLSv1.2" "US" ""';
    const sut = new PatternParserStage(
      '<ip> - - <_> "<method> <uri> <_>" <status> <size> <_> "<agent>" <_>',
    );
    expect(run(sut, line).labels).toEqual({
      ip: '0.191.12.2',
      method: 'GET',
      uri: '/api/plugins/versioncheck',
      status: '200',
      size: '2',
      agent: 'Go-http-client/2.0',
    });
  });

  it.each([
    ['leading literal must start the line', 'GET <path>', 'x GET /a', {}],
    ['leading literal matches', 'GET <path>', 'GET /a b', { path: '/a b' }],
    ['missing literal: capture takes the rest', '<a> | <b> ;', 'x | y z', { a: 'x', b: 'y z' }],
    [
      'unnamed captures skip text',
      '<_> level=<level> <_>',
      'ts=1 level=warn msg=x',
      { level: 'warn' },
    ],
    ['literal < text', 'a<b <c>', 'a<b x', { c: 'x' }],
    ['empty line', '<a> x', '', {}],
  ])('%s', (_name, pattern, line, want) => {
    expect(run(new PatternParserStage(pattern), line).labels).toEqual(want);
  });

  it.each([
    ['foo bar', 'at least one capture is required'],
    ['<_> <_>', 'at least one capture is required'],
    ['<a><b>', "found consecutive capture '<a><b>': invalid expression"],
    ['<a> <a>', 'duplicate capture name (a): invalid expression'],
  ])('rejects %j', (pattern, message) => {
    expect(() => new PatternParserStage(pattern)).toThrow(message);
  });
});

describe('| unpack', () => {
  it('replaces the line with _entry and adds string values (docs example)', () => {
    const r = run(
      new UnpackParserStage(),
      '{"container":"myapp","pod":"pod-3223f","_entry":"original log message"}',
    );
    expect(r).toEqual({
      line: 'original log message',
      labels: { container: 'myapp', pod: 'pod-3223f' },
    });
  });

  it.each([
    ['non-string values skipped', '{"a":1,"b":{"c":"d"},"e":"f","_entry":"x"}', 'x', { e: 'f' }],
    ['escaped entry', '{"_entry":"a\\"b\\n"}', 'a"b\n', {}],
    ['no _entry: nothing changes', '{"a":"b"}', '{"a":"b"}', {}],
    ['stream clash', '{"app":"foo","_entry":"x"}', 'x', { app: 'bar', app_extracted: 'foo' }],
  ])('%s', (_name, line, wantLine, want) => {
    const stream = (want as Record<string, string>).app === 'bar' ? '{app="bar"}' : '{}';
    expect(run(new UnpackParserStage(), line, stream)).toEqual({ line: wantLine, labels: want });
  });

  it.each([
    ['not an object', '"a"', 'expecting json object(6), but it is not'],
    ['malformed', '{"a":"b', "Value is string, but can't find closing '\"' symbol"],
  ])('%s sets JSONParserErr and keeps the line', (_name, line, details) => {
    expect(run(new UnpackParserStage(), line)).toEqual({
      line,
      labels: { __error__: 'JSONParserErr', __error_details__: details },
    });
  });
});
