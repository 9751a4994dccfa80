import { LogsvcError } from '@logsvc/errors';
import { describe, expect, it } from 'vitest';
import { compileTemplate, TemplateError } from '.';

const run = (text: string, data: Record<string, string> = {}) =>
  compileTemplate(text).execute(data, { line: 'the line', timestampNs: 0n });

function refusal(text: string): LogsvcError {
  try {
    run(text);
  } catch (err) {
    if (err instanceof LogsvcError) return err;
    throw err;
  }
  throw new Error(`${text} ran to completion`);
}

describe('template budgets', () => {
  it('lets work up to the budgets through', () => {
    expect(run('{{ repeat 1048576 "a" | len }}')).toBe('1048576');
    expect(run('{{ range 99999 }}{{ end }}done')).toBe('done');
    expect(run('{{ printf "%1000000d" 7 | len }}')).toBe('1000000');
  });

  it.each([
    ['{{ repeat 1048577 "a" }}', 'output exceeds the budget of 1048576 characters'],
    ['{{ repeat 600000 "ab" | len }}', 'output exceeds the budget of 1048576 characters'],
    ['{{ alignRight 2000000 "a" }}', 'output exceeds the budget'],
    ['{{ nindent 2000000 "a" }}', 'output exceeds the budget'],
    ['{{ range 2000 }}{{ repeat 1000 "x" }}{{ end }}', 'output exceeds the budget'],
    ['{{ range 100001 }}{{ end }}', 'budget of 100000 steps'],
    ['{{ range 400 }}{{ range 400 }}{{ end }}{{ end }}', 'budget of 100000 steps'],
  ])('%s is refused as bad_request: %s', (text, reason) => {
    const err = refusal(text);
    expect(err.kind).toBe('bad_request');
    expect(err.message).toContain(reason);
  });

  it('refuses fromJson input nested past 1,000 levels, whatever the stack left', () => {
    const nested = (n: number): string => `{{ fromJson "${'['.repeat(n)}${']'.repeat(n)}" }}`;
    expect(run(nested(1000))).toBe(`${'['.repeat(1000)}${']'.repeat(1000)}`);
    for (const n of [1001, 5000, 20000]) {
      expect(refusal(nested(n)).message).toContain('deeper than the budget of 1000 levels');
    }
  });

  it('turns a V8 limit hit mid-execution into a bad_request, not a crash', () => {
    const huge = '{{ repeat 1000000 "a" | replace "" (repeat 1000000 "b") }}';
    expect(refusal(huge).message).toContain("exceeds the engine's limits");
  });

  it('prints Go fmt markers for widths and precisions over a million instead of building them', () => {
    expect(run('{{ printf "%099999999d" 1 }}')).toBe('%!(NOVERB)%!(EXTRA int=1)');
    expect(run('{{ printf "%.999999999f" 1.5 }}')).toBe('%!(NOVERB)%!(EXTRA float64=1.5)');
    expect(run('{{ printf "%*d|" 1000001 7 }}')).toBe('%!(BADWIDTH)7|');
    expect(run('{{ printf "%.*f|" 1000001 1.5 }}')).toBe('%!(BADPREC)1.500000|');
  });

  it('stops template recursion and deep nesting with Go texts', () => {
    expect(() => run('{{ define "a" }}{{ template "a" }}{{ end }}{{ template "a" }}')).toThrow(
      TemplateError,
    );
    expect(() => run('{{ define "a" }}{{ template "a" }}{{ end }}{{ template "a" }}')).toThrow(
      'executing "a" at <{{template "a"}}>: exceeded maximum template depth (1000)',
    );
    expect(() => compileTemplate(`{{ ${'('.repeat(1001)}1${')'.repeat(1001)} }}`)).toThrow(
      'template: line:1: max expression depth exceeded',
    );
    expect(run(`{{ ${'('.repeat(999)}1${')'.repeat(999)} }}`)).toBe('1');
  });
});
