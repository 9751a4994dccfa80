import { describe, expect, it } from 'vitest';
import { labelsFromRecord } from './labels';
import {
  InvalidMatcherError,
  matcherMatchesEmpty,
  matcherToString,
  matchesLabels,
  type Matcher,
} from './matcher';

const api = labelsFromRecord({ app: 'api', env: 'prod' });

function m(type: Matcher['type'], name: string, value: string): Matcher {
  return { type, name, value };
}

describe('matchesLabels', () => {
  it.each([
    [m('=', 'app', 'api'), true],
    [m('=', 'app', 'ap'), false],
    [m('!=', 'app', 'api'), false],
    [m('!=', 'app', 'web'), true],
    // A missing label has the value "".
    [m('=', 'team', ''), true],
    [m('=', 'app', ''), false],
    [m('!=', 'team', ''), false],
    [m('!=', 'app', ''), true],
    // Regexes are fully anchored.
    [m('=~', 'app', 'ap'), false],
    [m('=~', 'app', 'a.*'), true],
    [m('=~', 'app', 'web|api'), true],
    [m('!~', 'app', 'web|api'), false],
    [m('!~', 'app', 'pi'), true],
    [m('=~', 'team', '.*'), true],
    [m('=~', 'team', '.+'), false],
    [m('!~', 'team', '.+'), true],
  ])('%o -> %s', (matcher, expected) => {
    expect(matchesLabels([matcher], api)).toBe(expected);
  });

  it('requires every matcher to accept', () => {
    expect(matchesLabels([m('=', 'app', 'api'), m('=', 'env', 'dev')], api)).toBe(false);
    expect(matchesLabels([m('=', 'app', 'api'), m('=~', 'env', 'pr.*')], api)).toBe(true);
  });

  it('anchors alternations as a whole, not per branch', () => {
    const labels = labelsFromRecord({ app: 'xapi' });
    expect(matchesLabels([m('=~', 'app', 'api|web')], labels)).toBe(false);
  });

  it('rejects an invalid regex with a typed error', () => {
    expect(() => matchesLabels([m('=~', 'app', '(')], api)).toThrow(InvalidMatcherError);
    expect(() => matchesLabels([m('=~', 'app', '(')], api)).toThrow(/error parsing regexp/);
  });

  it('runs backreference-free RE2 only (no backtracking constructs)', () => {
    expect(() => matchesLabels([m('=~', 'app', '(a)\\1')], api)).toThrow(InvalidMatcherError);
  });
});

describe('matcher helpers', () => {
  it('knows which matchers also select series without the label', () => {
    expect(matcherMatchesEmpty(m('=~', 'a', 'x|'))).toBe(true);
    expect(matcherMatchesEmpty(m('=', 'a', 'x'))).toBe(false);
    expect(matcherMatchesEmpty(m('!=', 'a', 'x'))).toBe(true);
  });

  it('prints matchers with Go quoting', () => {
    expect(matcherToString(m('=~', 'path', 'a"b\\.c'))).toBe('path=~"a\\"b\\\\.c"');
  });
});
