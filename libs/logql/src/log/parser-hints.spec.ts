import { describe, expect, it } from 'vitest';
import { labelsToRecord, parseLabels } from '@logsvc/api';
import { LogfmtParserStage } from './logfmt';
import { newParserHints, type HintInputs } from './parser-hints';
import { StreamPipeline } from './pipeline';

const inputs = (over: Partial<HintInputs>): HintInputs => ({
  stageLabels: [],
  groups: [],
  without: false,
  noLabels: false,
  preserveError: false,
  ...over,
});

describe('newParserHints (Loki rules)', () => {
  it('wants the grouping, the labels stages read and the unwrapped label', () => {
    const h = newParserHints(
      inputs({ groups: ['status'], stageLabels: ['path'], unwrapLabel: 'took' }),
    );
    expect([...(h.required ?? [])].sort()).toEqual(['path', 'status', 'took']);
    expect(h.noLabels).toBe(false);
  });

  it('wants `x` too when the query names `x_extracted`', () => {
    const h = newParserHints(inputs({ groups: ['level_extracted'] }));
    expect(h.wants('level')).toBe(true);
    expect(h.wants('level_extracted')).toBe(true);
    expect(h.wants('other')).toBe(false);
  });

  it('gives no hints without a grouping or with `without`', () => {
    expect(newParserHints(inputs({ stageLabels: ['a'] })).required).toBeNull();
    expect(newParserHints(inputs({ groups: ['a'], without: true })).required).toBeNull();
  });

  it('needs no label for `by ()` unless a stage reads one', () => {
    expect(newParserHints(inputs({ noLabels: true })).noLabels).toBe(true);
    const h = newParserHints(inputs({ noLabels: true, stageLabels: ['status'] }));
    expect(h.noLabels).toBe(false);
    expect([...(h.required ?? [])]).toEqual(['status']);
  });

  it('skips plain keys whose length no wanted label has, and keeps any other key', () => {
    const h = newParserHints(inputs({ groups: ['status', '_1x'] }));
    const key = (k: string, prefix = 0) => h.mayWantKey(Buffer.from(k), 0, k.length, prefix);
    expect(key('status')).toBe(true);
    expect(key('path')).toBe(false);
    expect(key('1x')).toBe(true); // sanitized to `_1x`
    expect(key('ab', 3)).toBe(true); // `req_ab` under `req`
    expect(key('päth')).toBe(true); // not plain ASCII: the caller decides
  });
});

describe('logfmt under hints', () => {
  const run = (groups: string[], stream: string, line: string) => {
    const sp = new StreamPipeline(parseLabels(stream), [new LogfmtParserStage()]);
    sp.builder.hints = newParserHints(inputs({ groups }));
    return labelsToRecord(sp.process(0n, Buffer.from(line))!.labels.labels);
  };

  it('extracts only the wanted labels', () => {
    expect(run(['status'], '{app="a"}', 'status=200 path=/x level=warn')).toEqual({
      app: 'a',
      status: '200',
    });
  });

  it('extracts nothing when every wanted label is a stream label', () => {
    expect(run(['level'], '{level="info"}', 'level=warn status=200')).toEqual({
      level: 'info',
    });
    expect(run(['level_extracted'], '{level="info"}', 'level=warn status=200')).toEqual({
      level: 'info',
      level_extracted: 'warn',
    });
  });
});
