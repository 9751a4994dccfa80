import { describe, expect, it } from 'vitest';
import { goQuote, labelsToString, parseLabels, LabelParseError, labelsHash } from './labels';

describe('labels', () => {
  it('parses and prints the canonical form sorted by name', () => {
    const sut = parseLabels('{job="api", app = "x\\"y", env=`raw\\n`}');
    expect(labelsToString(sut)).toBe('{app="x\\"y", env="raw\\\\n", job="api"}');
  });

  it('decodes Go escapes including UTF-8 byte escapes', () => {
    expect(parseLabels('{a="\\xc3\\xa9\\u00e9\\t"}')[0].value).toBe('éé\t');
  });

  it('reads single-quoted values as Loki does (it parses them with Prometheus)', () => {
    expect(parseLabels(`{a='1', b='say "hi"', c='it\\'s'}`)).toEqual([
      { name: 'a', value: '1' },
      { name: 'b', value: 'say "hi"' },
      { name: 'c', value: "it's" },
    ]);
    expect(() => parseLabels(`{a='1"}`)).toThrow(LabelParseError);
  });

  it('rejects malformed sets with an offset inside the input', () => {
    for (const bad of [
      '',
      '{',
      '{a}',
      '{a="b"',
      '{a=~"b"}',
      '{a="b",a="c"}',
      '{1a="b"}',
      '{a="b"} x',
    ]) {
      let err: unknown;
      try {
        parseLabels(bad);
      } catch (e) {
        err = e;
      }
      expect(err, bad).toBeInstanceOf(LabelParseError);
      expect((err as LabelParseError).offset).toBeLessThanOrEqual(bad.length);
    }
  });

  it('quotes control characters the way Go does', () => {
    expect(goQuote('a\nb\x01"')).toBe('"a\\nb\\x01\\""');
  });

  it('hashes equal sets equally whatever the input order', () => {
    expect(labelsHash(parseLabels('{a="1",b="2"}'))).toBe(
      labelsHash(parseLabels('{b="2", a="1"}')),
    );
    expect(labelsHash(parseLabels('{a="1"}'))).not.toBe(labelsHash(parseLabels('{a="2"}')));
  });
});
