import { describe, expect, it } from 'vitest';
import { goNumberLiteralError } from './go-number';

describe('goNumberLiteralError', () => {
  it('accepts the numbers LogQL users write', () => {
    for (const text of [
      '5',
      '0',
      '00',
      '0.5',
      '09.5',
      '1e3',
      '2E5',
      '1.5e-3',
      '5m',
      '20MB',
      '0KB',
    ]) {
      expect(goNumberLiteralError(text, 0), text).toBeUndefined();
    }
  });

  // Each text below is what Loki 3.4.6 answers for the literal (checked with `npm run diff:loki`).
  it.each([
    ['0x', 'hexadecimal literal has no digits'],
    ['0o8', "invalid digit '8' in octal literal"],
    ['09', "invalid digit '9' in octal literal"],
    ['0by', 'binary literal has no digits'],
    ['50evel', 'exponent has no digits'],
    ['1EB', 'exponent has no digits'],
    ['3__error', 'exponent has no digits'],
    ['0x10pattern', 'exponent has no digits'],
    ['1__0', "'_' must separate successive digits"],
  ])('refuses %s with %s', (text, message) => {
    expect(goNumberLiteralError(text, 0)).toBe(message);
  });
});
