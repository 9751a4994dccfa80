import { describe, expect, it } from 'vitest';
import { equalFold } from './go-strings';

describe('equalFold (Go strings.EqualFold)', () => {
  it.each([
    ['level', 'LEVEL', true],
    ['LeVeL', 'level', true],
    ['lvl', 'lvl ', false],
    ['severity', 'ſeverity', true], // U+017F LATIN SMALL LETTER LONG S folds to s
    ['kind', '\u212aIND', true], // U+212A KELVIN SIGN folds to k
    ['σας', 'ΣΑΣ', true],
    ['ß', 'ẞ', true],
    ['ß', 'SS', false],
    ['i', 'İ', false],
    ['@', '`', false], // 0x40 and 0x60 differ by 0x20 but are not letters
    ['😀a', '😀A', true],
  ])('%s ~ %s: %s', (s, t, same) => {
    expect(equalFold(s, t)).toBe(same);
    expect(equalFold(t, s)).toBe(same);
  });
});
