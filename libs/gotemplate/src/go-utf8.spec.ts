import { describe, expect, it } from 'vitest';
import { decodeUtf8AsGo } from './go-utf8';
import { compileTemplate } from './index';

const ctx = { line: '', timestampNs: 0n };
const run = (t: string, data: Record<string, string> = {}): string =>
  compileTemplate(t).execute(data, ctx);

describe('byte slicing through a multi-byte character gives one U+FFFD per stray byte', () => {
  it.each([
    // "é" is C3 A9, "€" is E2 82 AC, "😀" is F0 9F 98 80.
    ['{{ trunc 2 .s }}', 'aé', 'a\uFFFD'],
    ['{{ trunc 3 .s }}', 'a€b', 'a\uFFFD\uFFFD'],
    ['{{ trunc -2 .s }}', 'a€', '\uFFFD\uFFFD'],
    ['{{ trunc 4 .s }}', '😀', '😀'],
    ['{{ trunc 3 .s }}', '😀x', '\uFFFD\uFFFD\uFFFD'],
    ['{{ substr 1 3 .s }}', '€x', '\uFFFD\uFFFD'],
    ['{{ substr 2 6 .s }}', 'xé€', '\uFFFD€'],
    ['{{ substr 2 5 .s }}', 'xé€', '\uFFFD\uFFFD\uFFFD'],
    ['{{ slice .s 1 }}', '€', '\uFFFD\uFFFD'],
    ['{{ trunc 3 .s }}', 'héllo', 'hé'],
  ])('%s on %j', (tmpl, s, want) => {
    expect(run(tmpl, { s })).toBe(want);
  });
});

describe('decodeUtf8AsGo', () => {
  it.each([
    [[0x61, 0xe2, 0x82], 'a\uFFFD\uFFFD'],
    [[0xc0, 0xaf], '\uFFFD\uFFFD'], // overlong
    [[0xed, 0xa0, 0x80], '\uFFFD\uFFFD\uFFFD'], // surrogate
    [[0xf4, 0x90, 0x80, 0x80], '\uFFFD\uFFFD\uFFFD\uFFFD'], // above U+10FFFF
    [[0xef, 0xbf, 0xbd, 0x80], '\uFFFD\uFFFD'], // a real U+FFFD, then a stray byte
    [[0xe2, 0x82, 0xac], '€'],
  ])('%j', (bytes, want) => {
    expect(decodeUtf8AsGo(Uint8Array.from(bytes))).toBe(want);
  });
});
