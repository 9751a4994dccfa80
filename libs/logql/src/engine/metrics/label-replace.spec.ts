import { describe, expect, it } from 'vitest';
import { expandTemplate } from './label-replace';

const match = { groups: ['foo-bar', 'foo', 'bar'] };
const names = ['', 'first', 'second'];

describe('expandTemplate (Go Regexp.Expand)', () => {
  it.each([
    ['$1', 'foo'],
    ['${2}x', 'barx'],
    ['$first-$second', 'foo-bar'],
    ['${first}_', 'foo_'],
    ['$1x', ''],
    ['$$1', '$1'],
    ['a$', 'a$'],
    ['${1', '${1'],
    ['$9', ''],
    ['$missing', ''],
    ['plain', 'plain'],
  ])('%s → %s', (tmpl, want) => {
    expect(expandTemplate(tmpl, match, names)).toBe(want);
  });
});
