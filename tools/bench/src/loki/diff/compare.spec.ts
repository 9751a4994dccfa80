import { describe, expect, it } from 'vitest';
import { type Answer, firstDifference } from './compare';

function matrix(...series: Array<[Record<string, string>, number]>): Answer {
  return {
    status: 200,
    body: {
      status: 'success',
      data: {
        resultType: 'matrix',
        result: series.map(([metric, v]) => ({ metric, values: [[1700000000, String(v)]] })),
        stats: { summary: { execTime: Math.random() } },
      },
    },
  };
}

function pipelineError(series: string): Answer {
  return {
    status: 400,
    body:
      `pipeline error: 'JSONParserErr' for series: '{app="${series}"}'.\n` +
      'Use a label filter to intentionally skip this error.',
  };
}

describe('firstDifference', () => {
  it('takes series in any order and keys in any order as the same answer', () => {
    const a = matrix([{ app: 'a', env: 'prod' }, 1], [{ app: 'b', env: 'prod' }, 2]);
    const b = matrix([{ app: 'b', env: 'prod' }, 2], [{ env: 'prod', app: 'a' }, 1]);
    expect(firstDifference(a, b)).toBeNull();
  });

  it('allows summation noise in values but reports a real difference with its series', () => {
    const base = matrix([{ app: 'a' }, 1071.609375]);
    expect(firstDifference(base, matrix([{ app: 'a' }, 1071.6093750000002]))).toBeNull();
    const diff = firstDifference(base, matrix([{ app: 'a' }, 1071.61]));
    expect(diff?.left).toContain('series 1 of 1 / 1');
    expect(diff?.left).toContain('1071.609375');
    expect(diff?.right).toContain('1071.61');
  });

  it('reports a series one side lacks', () => {
    const diff = firstDifference(
      matrix([{ app: 'a' }, 1]),
      matrix([{ app: 'a' }, 1], [{ app: 'b' }, 1]),
    );
    expect(diff?.left).toContain('null');
    expect(diff?.right).toContain('"app\\",\\"b');
  });

  it('ignores which series a pipeline error names, not the error or the status', () => {
    expect(firstDifference(pipelineError('a'), pipelineError('b'))).toBeNull();
    const other: Answer = {
      status: 400,
      body: "pipeline error: 'LogfmtParserErr' for series: '{}'.",
    };
    expect(firstDifference(pipelineError('a'), other)).not.toBeNull();
    expect(
      firstDifference(pipelineError('a'), { ...pipelineError('a'), status: 500 }),
    ).not.toBeNull();
  });

  it('sorts lists that Loki writes in map order, such as series and detected fields', () => {
    const series = (data: unknown[]): Answer => ({
      status: 200,
      body: { status: 'success', data },
    });
    expect(
      firstDifference(
        series([
          { app: 'a', env: 'x' },
          { app: 'b', env: 'x' },
        ]),
        series([
          { env: 'x', app: 'b' },
          { app: 'a', env: 'x' },
        ]),
      ),
    ).toBeNull();
    expect(firstDifference(series([{ app: 'a' }]), series([{ app: 'c' }]))).not.toBeNull();
  });
});
