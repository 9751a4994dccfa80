import { describe, expect, it } from 'vitest';
import { InvalidTenantError } from './errors';
import { assertSafeTenant, isSafeTenant } from './tenant';

describe('assertSafeTenant', () => {
  it.each(['fake', 'team-a', 'A.b_c', "x!*'()", '.hidden', 'a'.repeat(150)])('accepts %j', (t) => {
    expect(() => assertSafeTenant(t)).not.toThrow();
  });

  it.each([
    ['', /empty/],
    ['.', /'\.' or '\.\.'/],
    ['..', /'\.' or '\.\.'/],
    ['../other', /unsupported character/],
    ['a/b', /unsupported character/],
    ['a\\b', /unsupported character/],
    ['nul\0', /unsupported character/],
    ['tab\t', /unsupported character/],
    ['ümlaut', /unsupported character/],
    ['a|b', /unsupported character/],
    ['a'.repeat(151), /too long/],
  ])('rejects %j', (t, reason) => {
    expect(() => assertSafeTenant(t)).toThrow(InvalidTenantError);
    expect(() => assertSafeTenant(t)).toThrow(reason);
    expect(isSafeTenant(t)).toBe(false);
  });
});
