import { describe, expect, it } from 'vitest';
import { labelsToRecord, parseLabels } from '@logsvc/api';
import {
  BytesLabelFilter,
  DurationLabelFilter,
  IpLabelFilter,
  LabelFilterStage,
  NumericLabelFilter,
  StringLabelFilter,
  andLabelFilters,
  orLabelFilters,
  type LabelFilter,
} from './label-filter';
import { LabelsBuilder } from './labels-builder';

function check(filter: LabelFilter, stream: string, err = '') {
  const lbs = new LabelsBuilder(parseLabels(stream));
  if (err !== '') lbs.setErr(err);
  const kept = new LabelFilterStage(filter).process(0n, Buffer.from('line'), lbs) !== null;
  return { kept, labels: labelsToRecord(lbs.labels().labels) };
}

describe('label filters', () => {
  const rows: { name: string; filter: LabelFilter; stream: string; kept: boolean; err?: string }[] =
    [
      {
        name: 'string =',
        filter: new StringLabelFilter('level', '=', 'info'),
        stream: '{level="info"}',
        kept: true,
      },
      {
        name: 'string !=',
        filter: new StringLabelFilter('level', '!=', 'info'),
        stream: '{level="info"}',
        kept: false,
      },
      {
        name: 'missing label is empty',
        filter: new StringLabelFilter('level', '=', ''),
        stream: '{a="b"}',
        kept: true,
      },
      {
        name: 'missing label !=',
        filter: new StringLabelFilter('level', '!=', 'x'),
        stream: '{a="b"}',
        kept: true,
      },
      {
        name: 'regex anchored',
        filter: new StringLabelFilter('p', '=~', 'api'),
        stream: '{p="/api/x"}',
        kept: false,
      },
      {
        name: 'regex full',
        filter: new StringLabelFilter('p', '=~', '/api/.*'),
        stream: '{p="/api/x"}',
        kept: true,
      },
      {
        name: 'regex !~',
        filter: new StringLabelFilter('s', '!~', '2..'),
        stream: '{s="200"}',
        kept: false,
      },
      {
        name: '__error__="" passes clean entries',
        filter: new StringLabelFilter('__error__', '=', ''),
        stream: '{a="b"}',
        kept: true,
      },
      {
        name: '__error__="" drops errors',
        filter: new StringLabelFilter('__error__', '=', ''),
        stream: '{a="b"}',
        err: 'JSONParserErr',
        kept: false,
      },
      {
        name: '__error__!= other error',
        filter: new StringLabelFilter('__error__', '!=', 'JSONParserErr'),
        stream: '{a="b"}',
        err: 'LogfmtParserErr',
        kept: true,
      },
      {
        name: 'numeric >',
        filter: new NumericLabelFilter('n', '>', 5),
        stream: '{n="5.5"}',
        kept: true,
      },
      {
        name: 'numeric == (=)',
        filter: new NumericLabelFilter('n', '=', 5),
        stream: '{n="5"}',
        kept: true,
      },
      {
        name: 'numeric <=',
        filter: new NumericLabelFilter('n', '<=', 5),
        stream: '{n="6"}',
        kept: false,
      },
      {
        name: 'numeric missing label drops',
        filter: new NumericLabelFilter('n', '!=', 5),
        stream: '{a="b"}',
        kept: false,
      },
      {
        name: 'numeric compares entries with an error',
        filter: new NumericLabelFilter('n', '>', 100),
        stream: '{n="1"}',
        err: 'JSONParserErr',
        kept: false,
      },
      {
        name: 'numeric keeps a matching entry with an error',
        filter: new NumericLabelFilter('n', '>', 100),
        stream: '{n="101"}',
        err: 'JSONParserErr',
        kept: true,
      },
      {
        name: 'numeric drops an entry with an error and no label',
        filter: new NumericLabelFilter('n', '>', 100),
        stream: '{a="b"}',
        err: 'JSONParserErr',
        kept: false,
      },
      {
        name: 'duration drops an entry with an error and no label',
        filter: new DurationLabelFilter('d', '>', 1),
        stream: '{a="b"}',
        err: 'LogfmtParserErr',
        kept: false,
      },
      {
        name: 'bytes drops an entry with an error and no label',
        filter: new BytesLabelFilter('b', '>', 1),
        stream: '{a="b"}',
        err: 'JSONParserErr',
        kept: false,
      },
      {
        name: 'ip passes entries with an error',
        filter: new IpLabelFilter('addr', '=', '10.0.0.0/8'),
        stream: '{a="b"}',
        err: 'JSONParserErr',
        kept: true,
      },
      {
        name: 'duration >=',
        filter: new DurationLabelFilter('d', '>=', 20e6),
        stream: '{d="20ms"}',
        kept: true,
      },
      {
        name: 'duration <',
        filter: new DurationLabelFilter('d', '<', 1e9),
        stream: '{d="1.5s"}',
        kept: false,
      },
      {
        name: 'bytes >',
        filter: new BytesLabelFilter('b', '>', 20e6),
        stream: '{b="21MB"}',
        kept: true,
      },
      {
        name: 'bytes == KiB',
        filter: new BytesLabelFilter('b', '==', 2560),
        stream: '{b="2.5KiB"}',
        kept: true,
      },
      {
        name: 'ip =',
        filter: new IpLabelFilter('addr', '=', '10.0.0.0/8'),
        stream: '{addr="10.2.3.4"}',
        kept: true,
      },
      {
        name: 'ip !=',
        filter: new IpLabelFilter('addr', '!=', '10.0.0.0/8'),
        stream: '{addr="10.2.3.4"}',
        kept: false,
      },
      {
        name: 'ip short IPv6 value',
        filter: new IpLabelFilter('addr', '=', '::1'),
        stream: '{addr="::1"}',
        kept: true,
      },
      {
        name: 'ip missing label drops',
        filter: new IpLabelFilter('addr', '=', '::1'),
        stream: '{a="b"}',
        kept: false,
      },
    ];
  it.each(rows)('$name', ({ filter, stream, kept, err }) => {
    expect(check(filter, stream, err).kept).toBe(kept);
  });

  it.each([
    [
      new NumericLabelFilter('n', '>', 1),
      '{n="abc"}',
      'strconv.ParseFloat: parsing "abc": invalid syntax',
    ],
    [new DurationLabelFilter('d', '>', 1), '{d="12"}', 'time: missing unit in duration "12"'],
    [new BytesLabelFilter('b', '>', 1), '{b="1ZB"}', 'unhandled size name: zb'],
  ])(
    'a value that does not convert keeps the entry with LabelFilterErr (%#)',
    (filter, stream, details) => {
      const r = check(filter, stream);
      expect(r.kept).toBe(true);
      expect(r.labels).toMatchObject({ __error__: 'LabelFilterErr', __error_details__: details });
    },
  );

  it('a value that does not convert keeps an earlier error as it is', () => {
    const r = check(new NumericLabelFilter('n', '>', 1), '{n="abc"}', 'JSONParserErr');
    expect(r.kept).toBe(true);
    expect(r.labels).toMatchObject({ __error__: 'JSONParserErr' });
    expect(r.labels).not.toHaveProperty('__error_details__');
  });

  it('combines with and / or, short-circuiting or', () => {
    // | duration >= 20ms or size == 20kb and method!~"2.."  (and binds tighter)
    const f = orLabelFilters(
      new DurationLabelFilter('duration', '>=', 20e6),
      andLabelFilters(
        new BytesLabelFilter('size', '==', 20000),
        new StringLabelFilter('method', '!~', '2..'),
      ),
    );
    expect(check(f, '{duration="25ms"}').kept).toBe(true);
    expect(check(f, '{duration="5ms", size="20kb", method="GET"}').kept).toBe(true);
    expect(check(f, '{duration="5ms", size="20kb", method="200"}').kept).toBe(false);
    // the right side is not evaluated when the left side passes: no LabelFilterErr
    const short = orLabelFilters(
      new StringLabelFilter('a', '=', 'b'),
      new NumericLabelFilter('a', '>', 1),
    );
    expect(check(short, '{a="b"}').labels).toEqual({ a: 'b' });
  });
});
