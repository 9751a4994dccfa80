import { describe, expect, it } from 'vitest';
import { labelsFromRecord, parseLabels } from '@logsvc/api';
import { LabelCategory, type LabelsBuilder } from './labels-builder';
import { Pipeline, type Stage } from './pipeline';

const setLevel: Stage = {
  process: (_ts, line, lbs: LabelsBuilder) => {
    lbs.set(LabelCategory.Parsed, 'level', line.toString().split(' ')[0]);
    return line;
  },
};
const dropDebug: Stage = {
  process: (_ts, line, lbs) => (lbs.get('level') === 'debug' ? null : line),
};
const upper: Stage = { process: (_ts, line) => Buffer.from(line.toString().toUpperCase()) };

describe('Pipeline', () => {
  const stream = parseLabels('{app="api"}');

  it('without stages returns the line and the stream labels as they are', () => {
    const sp = new Pipeline([]).forStream(stream);
    const line = Buffer.from('hello');
    const r = sp.process(1n, line);
    expect(r?.line).toBe(line);
    expect(r?.labels.toString()).toBe('{app="api"}');
  });

  it('adds structured metadata even without stages', () => {
    const sp = new Pipeline([]).forStream(stream);
    const r = sp.process(1n, Buffer.from('x'), labelsFromRecord({ trace_id: 'abc' }));
    expect(r?.labels.toString()).toBe('{app="api", trace_id="abc"}');
    expect(r?.labels.structuredMetadata).toEqual([{ name: 'trace_id', value: 'abc' }]);
  });

  it('runs stages in order, dropping and rewriting entries', () => {
    const sp = new Pipeline([setLevel, dropDebug, upper]).forStream(stream);
    expect(sp.process(1n, Buffer.from('debug x'))).toBeNull();
    const r = sp.process(2n, Buffer.from('info y'));
    expect(r?.line.toString()).toBe('INFO Y');
    expect(r?.labels.toString()).toBe('{app="api", level="info"}');
  });

  it('starts every entry from the stream labels again', () => {
    const sp = new Pipeline([setLevel]).forStream(stream);
    sp.process(1n, Buffer.from('warn a'), labelsFromRecord({ user: 'u1' }));
    const r = sp.process(2n, Buffer.from('info b'));
    expect(r?.labels.toString()).toBe('{app="api", level="info"}');
  });
});
