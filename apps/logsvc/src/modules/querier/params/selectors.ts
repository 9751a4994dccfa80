import type { Matcher } from '@logsvc/api';
import { parseMatchers } from '@logsvc/logql';
import { ParamError } from './query-params';

/**
 * A stream selector's matchers. `{}` (match everything) is accepted where Loki accepts it
 * (series, volume, label queries) and gives no matchers.
 */
export function parseSelector(text: string): Matcher[] {
  if (/^\s*\{\s*\}\s*$/.test(text)) return [];
  return [...parseMatchers(text)].map(({ type, name, value }) => ({ type, name, value }));
}

/** Selector groups of `match[]` (and `match`), at least one, as Loki's series endpoint reads them. */
export function parseMatchGroups(values: readonly string[]): Matcher[][] {
  if (values.length === 0) throw new ParamError('0 matcher groups supplied');
  return values.map(parseSelector);
}
