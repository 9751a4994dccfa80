import { describe, expect, it } from 'vitest';
import { labelsToRecord, parseLabels } from '@logsvc/api';
import { DecolorizeStage } from './decolorize';
import { DropLabelsStage, KeepLabelsStage } from './drop-keep';
import { StageBuildError } from './errors';
import { LabelCategory } from './labels-builder';
import { LabelFormatStage } from './label-format';
import { LineFormatStage } from './line-format';
import { Pipeline, type Stage } from './pipeline';

const setErr: Stage = {
  process: (_ts, line, lbs) => {
    lbs.setErr('JSONParserErr');
    lbs.setErrorDetails('bad');
    return line;
  },
};
const parsed = (name: string, value: string): Stage => ({
  process: (_ts, line, lbs) => {
    lbs.set(LabelCategory.Parsed, name, value);
    return line;
  },
});

function run(stages: Stage[], line: string, stream = '{app="api", env="prod"}', ts = 0n) {
  const r = new Pipeline(stages).forStream(parseLabels(stream)).process(ts, Buffer.from(line));
  if (r === null) throw new Error('dropped');
  return { line: r.line.toString(), labels: labelsToRecord(r.labels.labels), result: r.labels };
}

describe('| line_format', () => {
  it.each([
    ['{{.app}}', 'api'],
    ['{{ .missing }}', ''],
    ['{{.app}} {{.env | ToUpper}}: {{ __line__ }}', 'api PROD: original'],
    ['{{ __timestamp__ | unixEpochMillis }}', '1700000000123'],
    ['plain text', 'plain text'],
  ])('%s → %j', (tmpl, want) => {
    expect(
      run([new LineFormatStage(tmpl)], 'original', undefined, 1_700_000_000_123_456_789n).line,
    ).toBe(want);
  });

  it('sees parsed labels and the error labels', () => {
    const r = run(
      [parsed('level', 'warn'), setErr, new LineFormatStage('{{.level}} {{.__error__}}')],
      'x',
    );
    expect(r.line).toBe('warn JSONParserErr');
  });

  it('keeps the line and sets TemplateFormatErr on an execution error', () => {
    const r = run([new LineFormatStage('{{ unixToTime "abc" }}')], 'original');
    expect(r.line).toBe('original');
    expect(r.labels.__error__).toBe('TemplateFormatErr');
    expect(r.labels.__error_details__).toContain("unable to parse time 'abc'");
  });

  it('rejects a template that does not parse', () => {
    expect(() => new LineFormatStage('{{ nope }}')).toThrow(StageBuildError);
  });
});

describe('| label_format', () => {
  it('renames, removing the source and keeping its category', () => {
    const r = run(
      [new LabelFormatStage([{ name: 'application', value: 'app', rename: true }])],
      'x',
    );
    expect(r.labels).toEqual({ application: 'api', env: 'prod' });
    expect(r.result.stream.map((p) => p.name)).toEqual(['application', 'env']);
  });

  it('ignores a rename whose source is missing', () => {
    const r = run([new LabelFormatStage([{ name: 'a', value: 'nope', rename: true }])], 'x');
    expect(r.labels).toEqual({ app: 'api', env: 'prod' });
  });

  it('sets template results as parsed labels, keeping referenced labels', () => {
    const r = run(
      [
        new LabelFormatStage([
          { name: 'both', value: '{{.app}}-{{.env}} {{__line__}}', rename: false },
        ]),
      ],
      'L',
    );
    expect(r.labels).toEqual({ app: 'api', env: 'prod', both: 'api-prod L' });
    expect(r.result.parsed).toEqual([{ name: 'both', value: 'api-prod L' }]);
  });

  it('evaluates templates of one stage on the same labels', () => {
    const r = run(
      [
        new LabelFormatStage([
          { name: 'env', value: '{{.app}}', rename: false },
          { name: 'copy', value: '{{.env}}', rename: false },
        ]),
      ],
      'x',
    );
    expect(r.labels).toEqual({ app: 'api', env: 'api', copy: 'prod' });
  });

  it('sets TemplateFormatErr and leaves the label unset on an error', () => {
    const r = run(
      [new LabelFormatStage([{ name: 'x', value: '{{ div 1 0 }}', rename: false }])],
      'line',
    );
    expect(r.labels.x).toBeUndefined();
    expect(r.labels.__error__).toBe('TemplateFormatErr');
    expect(r.line).toBe('line');
  });

  it.each([
    [[{ name: '__error__', value: 'a', rename: true }], '__error__ cannot be formatted'],
    [
      [
        { name: 'a', value: 'b', rename: true },
        { name: 'a', value: 'c', rename: true },
      ],
      "multiple label name 'a' not allowed in a single format operation",
    ],
  ])('rejects %j', (params, message) => {
    expect(() => new LabelFormatStage(params)).toThrow(message);
  });
});

describe('| drop / | keep', () => {
  const base = [parsed('level', 'info'), parsed('user', 'u1')];
  it.each([
    [
      'drop by name',
      [new DropLabelsStage([{ name: 'env' }, { name: 'level' }])],
      { app: 'api', user: 'u1' },
    ],
    [
      'drop by matcher',
      [
        new DropLabelsStage([
          { name: 'level', type: '=', value: 'info' },
          { name: 'user', type: '=~', value: 'x.*' },
        ]),
      ],
      { app: 'api', env: 'prod', user: 'u1' },
    ],
    [
      'keep by name',
      [new KeepLabelsStage([{ name: 'app' }, { name: 'level' }])],
      { app: 'api', level: 'info' },
    ],
    [
      'keep by matcher',
      [
        new KeepLabelsStage([
          { name: 'env', type: '=', value: 'dev' },
          { name: 'user', type: '!=', value: 'x' },
        ]),
      ],
      { user: 'u1' },
    ],
  ] as [string, Stage[], Record<string, string>][])('%s', (_name, stages, want) => {
    expect(run([...base, ...stages], 'x').labels).toEqual(want);
  });

  it('drop __error__ clears the error; keep never removes it', () => {
    expect(
      run(
        [setErr, new DropLabelsStage([{ name: '__error__' }, { name: '__error_details__' }])],
        'x',
      ).labels,
    ).toEqual({
      app: 'api',
      env: 'prod',
    });
    expect(
      run([setErr, new DropLabelsStage([{ name: '__error__', type: '=', value: 'Other' }])], 'x')
        .labels.__error__,
    ).toBe('JSONParserErr');
    expect(run([setErr, new KeepLabelsStage([{ name: 'app' }])], 'x').labels).toEqual({
      app: 'api',
      __error__: 'JSONParserErr',
      __error_details__: 'bad',
    });
  });
});

describe('| decolorize', () => {
  it.each([
    ['\x1b[31mred\x1b[0m text', 'red text'],
    ['\x1b[1;32mbold green\x1b[m', 'bold green'],
    ['\u009b31mcsi\u009b0m', 'csi'],
    ['\x1b]0;title\x07after', 'after'],
    ['no colours é', 'no colours é'],
  ])('%j → %j', (line, want) => {
    expect(run([new DecolorizeStage()], line).line).toBe(want);
  });
});
