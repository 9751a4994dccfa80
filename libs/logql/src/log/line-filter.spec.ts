import { describe, expect, it } from 'vitest';
import { StageBuildError } from './errors';
import { LabelsBuilder } from './labels-builder';
import {
  LineFilterStage,
  newLineFilter,
  type LineFilterOp,
  type LineFilterValue,
} from './line-filter';

const text = (...values: string[]): LineFilterValue[] =>
  values.map((value) => ({ type: 'text', value }));
const ip = (value: string): LineFilterValue => ({ type: 'ip', value });

interface Row {
  op: LineFilterOp;
  values: LineFilterValue[];
  line: string;
  want: boolean;
}

const rows: Row[] = [
  { op: '|=', values: text('needle'), line: 'hay needle hay', want: true },
  { op: '|=', values: text('needle'), line: 'hay Needle hay', want: false },
  { op: '|=', values: text(''), line: 'anything', want: true },
  { op: '|=', values: text(''), line: '', want: true },
  { op: '!=', values: text('debug'), line: 'level=info', want: true },
  { op: '!=', values: text('debug'), line: 'level=debug', want: false },
  { op: '|=', values: text('a', 'b'), line: 'only b here', want: true },
  { op: '|=', values: text('x', 'y'), line: 'none here', want: false },
  { op: '!=', values: text('x', 'y'), line: 'has y', want: false },
  { op: '!=', values: text('x', 'y'), line: 'has neither', want: true },
  { op: '|~', values: text('err(or)?'), line: 'an error occurred', want: true },
  { op: '|~', values: text('^start'), line: 'not start', want: false },
  { op: '|~', values: text('(?i)ERROR'), line: 'an error', want: true },
  { op: '|~', values: text('ERROR'), line: 'an error', want: false },
  { op: '|~', values: text('é+x'), line: 'caféééx', want: true },
  { op: '!~', values: text('status=5..'), line: 'status=503', want: false },
  { op: '!~', values: text('status=5..'), line: 'status=200', want: true },
  { op: '|~', values: text('foo', 'ba[rz]'), line: 'xbaz', want: true },
  // Literal alternations are searched literal by literal; they must match as the regex does.
  { op: '|~', values: text('timeout|declined'), line: 'card declined', want: true },
  { op: '|~', values: text('timeout|declined'), line: 'upstream timeout', want: true },
  { op: '|~', values: text('timeout|declined'), line: 'all fine', want: false },
  { op: '|~', values: text('timeout|'), line: 'all fine', want: true },
  { op: '|~', values: text('a\\|b'), line: 'a|b', want: true },
  { op: '|~', values: text('a\\|b'), line: 'b', want: false },
  { op: '!~', values: text('timeout|declined'), line: 'card declined', want: false },
  { op: '!~', values: text('timeout|declined'), line: 'all fine', want: true },
  { op: '|~', values: text('café|thé'), line: 'un thé', want: true },
  { op: '|>', values: text('<_> foo <_>'), line: 'bar foo baz', want: true },
  { op: '|>', values: text('<_> bar'), line: 'foo bar baz', want: false },
  { op: '|>', values: text('<_> baz'), line: 'foo bar baz', want: true },
  { op: '|>', values: text('foo <_>'), line: 'foo bar baz', want: true },
  { op: '|>', values: text('bar <_>'), line: 'foo bar baz', want: false },
  { op: '|>', values: text('<_> bar <_>'), line: ' bar ', want: false },
  { op: '|>', values: text('<_>bar<_>'), line: ' bar ', want: true },
  { op: '|>', values: text(''), line: '', want: true },
  { op: '|>', values: text(''), line: 'x', want: false },
  { op: '!>', values: text('<_> foo <_>'), line: 'bar foo baz', want: false },
  { op: '|>', values: text('GET <_>', 'POST <_>'), line: 'POST /api', want: true },
  { op: '|=', values: [ip('192.168.4.5/16')], line: 'client 192.168.10.1 connected', want: true },
  { op: '|=', values: [ip('192.168.4.5/16')], line: 'client 10.0.0.1 connected', want: false },
  { op: '|=', values: [ip('3.180.71.3')], line: 'from 93.180.71.3 to', want: false },
  { op: '|=', values: [ip('93.180.71.3')], line: 'from 93.180.71.3 to', want: true },
  { op: '!=', values: [ip('10.0.0.0/8')], line: 'from 10.1.2.3', want: false },
  { op: '|=', values: text('x', 'y').concat(ip('10.0.0.1')), line: 'addr 10.0.0.1', want: true },
];

describe('line filters', () => {
  it.each(rows)('$op $values.0.value ... on "$line" → $want', ({ op, values, line, want }) => {
    const sut = new LineFilterStage([newLineFilter(op, values)]);
    const out = sut.process(0n, Buffer.from(line), new LabelsBuilder([]));
    expect(out !== null).toBe(want);
  });

  it('chains filters as AND whatever their order', () => {
    const sut = new LineFilterStage([
      newLineFilter('|~', text('b.d')),
      newLineFilter('|=', text('a')),
      newLineFilter('!=', text('z')),
    ]);
    const lbs = new LabelsBuilder([]);
    expect(sut.process(0n, Buffer.from('a bad'), lbs)).not.toBeNull();
    expect(sut.process(0n, Buffer.from('a bad z'), lbs)).toBeNull();
    expect(sut.process(0n, Buffer.from('bod'), lbs)).toBeNull();
  });

  it.each([
    ['|~', text('a('), 'error parsing regexp: missing closing ): `a(`'],
    ['|>', text('<a>'), "named captures are not allowed: found '<a>'"],
    ['|>', text('<_><_>'), "found consecutive capture '<_><_>': invalid expression"],
    ['|~', [ip('10.0.0.1')], 'ip: invalid operation'],
    ['|=', [ip('not-an-ip')], 'ip: invalid pattern: "not-an-ip"'],
  ] as [LineFilterOp, LineFilterValue[], string][])('rejects %s %j', (op, values, message) => {
    expect(() => newLineFilter(op, values)).toThrow(new StageBuildError(message));
  });
});
