import RE2 from 're2';
import { describe, expect, it } from 'vitest';
import { regexpCompileError } from './go-regexp';

function compileError(source: string): string {
  try {
    new RE2(source, 'u');
  } catch (err) {
    return regexpCompileError(source, (err as Error).message);
  }
  throw new Error(`${source} compiled`);
}

describe('regexpCompileError', () => {
  it("words RE2's errors as Go's regexp/syntax does", () => {
    expect(compileError('(a')).toBe('error parsing regexp: missing closing ): `(a`');
    expect(compileError('a**')).toBe(
      'error parsing regexp: invalid nested repetition operator: `**`',
    );
    expect(compileError('\\q')).toBe('error parsing regexp: invalid escape sequence: `\\q`');
    expect(compileError('[a')).toBe('error parsing regexp: missing closing ]: `[a`');
    expect(compileError('x(?<n')).toBe('error parsing regexp: invalid named capture: `(?<n`');
    expect(compileError('x(?P<n')).toBe('error parsing regexp: invalid named capture: `(?P<n`');
    expect(compileError('a(?=b)')).toBe(
      'error parsing regexp: invalid or unsupported Perl syntax: `(?=`',
    );
  });

  it('quotes a slash as written (the binding hands RE2 `\\/`)', () => {
    expect(compileError('a/(')).toBe('error parsing regexp: missing closing ): `a/(`');
    expect(compileError('(?P<v/erb>x)')).toBe(
      'error parsing regexp: invalid named capture: `(?P<v/erb>`',
    );
  });

  it('calls a lookbehind an invalid named capture, as Go reads `(?<` as a group name', () => {
    // Loki 3.4.6 answers `|~ "(?<!a)b"` with this text.
    expect(compileError('(?<!a)b')).toBe('error parsing regexp: invalid named capture: `(?<!a)b`');
    expect(compileError('x(?<=a)b')).toBe('error parsing regexp: invalid named capture: `(?<=a)b`');
    expect(compileError('(?<!a>b)')).toBe('error parsing regexp: invalid named capture: `(?<!a>`');
  });
});
