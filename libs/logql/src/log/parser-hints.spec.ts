import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelsToRecord, parseLabels } from '@logsvc/api';
import { LogfmtParserStage } from './logfmt';
import { DUPLICATE_SUFFIX } from './errors';
import { newParserHints, type HintInputs } from './parser-hints';
import { sanitizeLabelKey } from './sanitize';
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

describe('mayWantKey compares top-level keys in place', () => {
  const names = fc.constantFrom('level', 'latency_ms', '_1x', 'a_b', 'bytes', '__error__', 'x');
  const wanted = fc.uniqueArray(
    fc.oneof(
      names,
      names.map((n) => n + DUPLICATE_SUFFIX),
    ),
    { minLength: 1, maxLength: 4 },
  );
  const keyChar = fc.constantFrom(...'levlatcyn_ms1xab-.:é ~\t'.split(''), '\u00a0', '\u007f');
  const key = fc.oneof(
    names,
    fc.array(keyChar, { minLength: 1, maxLength: 12 }).map((cs) => cs.join('')),
    fc.string({ minLength: 1, maxLength: 8 }),
  );

  it('never refuses a key whose sanitized name (or its _extracted) is wanted', () => {
    fc.assert(
      fc.property(wanted, key, (groups, k) => {
        const h = newParserHints(inputs({ groups }));
        const b = Buffer.from(k);
        const name = sanitizeLabelKey(k, true);
        const wants = h.wants(name) || h.wants(name + DUPLICATE_SUFFIX);
        if (wants) expect(h.mayWantKey(b, 0, b.length, 0)).toBe(true);
        // A plain key of a wanted length that is not wanted is refused (no string made).
        const plain = /^[\x21-\x7e]+$/.test(k);
        if (plain && !wants) expect(h.mayWantKey(b, 0, b.length, 0)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses same-length keys that are not wanted', () => {
    const h = newParserHints(inputs({ groups: ['level', 'a_b'] }));
    const key = (k: string) => h.mayWantKey(Buffer.from(k), 0, k.length, 0);
    expect(key('level')).toBe(true);
    expect(key('bytes')).toBe(false);
    expect(key('a.b')).toBe(true); // sanitized to `a_b`
    expect(key('a_c')).toBe(false);
    expect(key('leve\u00e9')).toBe(true); // not plain ASCII: the caller decides
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
