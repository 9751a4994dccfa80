import { describe, expect, it } from 'vitest';
import { compileTemplate } from './index';

const ctx = { line: '', timestampNs: 0n };
const run = (t: string, data: Record<string, string> = {}): string =>
  compileTemplate(t).execute(data, ctx);

describe('case functions map rune by rune as Go does', () => {
  it.each([
    // ß has no simple upper-case mapping: Go keeps it (JavaScript gives "SS").
    ['{{ upper .s }}', 'straße', 'STRAßE'],
    ['{{ ToUpper .s }}', 'straße', 'STRAßE'],
    // Ligatures are unchanged by upper (JavaScript expands ﬁ to "FI").
    ['{{ upper .s }}', 'ﬁle ﬀ', 'ﬁLE ﬀ'],
    // Dotted capital I lowers to plain i (JavaScript adds a combining dot above).
    ['{{ lower .s }}', 'İSTANBUL', 'istanbul'],
    ['{{ ToLower .s }}', 'İ', 'i'],
    // No final-sigma rule: every Σ lowers to σ.
    ['{{ lower .s }}', 'ΟΔΟΣ ΟΔΟΣ', 'οδοσ οδοσ'],
    // Greek with ypogegrammeni: simple mapping to the title-case letter.
    ['{{ upper .s }}', 'ᾳ ᾀ ῳ', 'ᾼ ᾈ ῼ'],
    ['{{ upper .s }}', 'ŉ ǰ ΐ', 'ŉ ǰ ΐ'],
    // Ordinary letters, ASCII and beyond.
    ['{{ upper .s }}', 'héllo wörld ǆ', 'HÉLLO WÖRLD Ǆ'],
    ['{{ lower .s }}', 'HÉLLO ǅ Ω', 'héllo ǆ ω'],
    ['{{ upper .s }}', 'abc-123', 'ABC-123'],
  ])('%s on %s', (tmpl, s, want) => {
    expect(run(tmpl, { s })).toBe(want);
  });
});

describe('title is strings.Title', () => {
  it.each([
    ['hello world', 'Hello World'],
    // Only the first letter of a word changes; the rest is kept as is.
    ['hELLO wORLD', 'HELLO WORLD'],
    // Punctuation other than spaces does not start a word outside ASCII; in ASCII it does.
    ['foo-bar_baz.qux', 'Foo-Bar_baz.Qux'],
    ['«quoted» word', '«quoted» Word'],
    // Title case, not upper case, for the Latin digraphs.
    ['ǆemal ǉubljana', 'ǅemal ǈubljana'],
    ['ßtraße ﬁsh', 'ßtraße ﬁsh'],
    // U+FEFF is not a space in Go, so it does not start a word.
    ['a\uFEFFb c', 'A\uFEFFb C'],
    ['straße\u3000ΐx', 'Straße\u3000ΐx'],
  ])('title %j', (s, want) => {
    expect(run('{{ title .s }}', { s })).toBe(want);
  });
});
