import type { Matcher } from '@logsvc/api';
import { parseMatchers } from '@logsvc/logql';
import { ParamError } from '../param-error';

/**
 * A stream selector's matchers. `{}` (match everything) is accepted where Loki accepts it
 * (series, volume, label queries) and gives no matchers.
 */
export function parseSelector(text: string): Matcher[] {
  if (/^\s*\{\s*\}\s*$/.test(text)) return [];
  return selectorMatchers(text);
}

/** A stream selector's matchers, with Loki's checks (`{}` is refused, as for queries). */
export function selectorMatchers(text: string): Matcher[] {
  return plainMatchers(parseMatchers(text));
}

/** The parser's matchers as the API's (without their positions). */
function plainMatchers(parsed: readonly Matcher[]): Matcher[] {
  return parsed.map(({ type, name, value }) => ({ type, name, value }));
}

/**
 * Selector groups of `match[]` (and `match`), at least one, as Loki's series endpoint reads
 * them: duplicates merged; a lone `{}` lists every series; otherwise each group is parsed
 * without the rule that a selector needs a matcher with a non-empty value (`{app=~".*"}` is
 * allowed), but must have a matcher.
 */
export function parseMatchGroups(values: readonly string[]): Matcher[][] {
  if (values.length === 0) throw new ParamError('0 matcher groups supplied');
  const groups = [...new Set(values)];
  if (groups.length === 1 && groups[0].replaceAll(' ', '') === '{}') return [[]];
  return groups.map((text) => {
    const matchers = parseMatchers(text, false);
    if (matchers.length === 0) throw new ParamError(`0 matchers in group: ${text}`);
    return plainMatchers(matchers);
  });
}
