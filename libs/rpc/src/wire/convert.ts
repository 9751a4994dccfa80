import type { Labels, Matcher, MatchType } from '@logsvc/api';
import { LogsvcError } from '@logsvc/errors';
import type { Int64, WireLabelPair, WireMatcher } from './messages';

const MATCH_TYPES: readonly MatchType[] = ['=', '!=', '=~', '!~'];

export function matchersToWire(matchers: readonly Matcher[]): WireMatcher[] {
  return matchers.map((m) => ({ type: MATCH_TYPES.indexOf(m.type), name: m.name, value: m.value }));
}

/** The matchers of a request; an unknown match type is the caller's fault (400). */
export function matchersFromWire(matchers: readonly WireMatcher[]): Matcher[] {
  return matchers.map((m) => {
    const type = MATCH_TYPES[m.type];
    if (type === undefined) throw new LogsvcError('bad_request', `unknown matcher type ${m.type}`);
    return { type, name: m.name, value: m.value };
  });
}

/** Labels go as (name, value) pairs in their order, so they come back exactly as sent. */
export function labelsToWire(labels: Labels): WireLabelPair[] {
  return labels.map(({ name, value }) => ({ name, value }));
}

export function labelsFromWire(pairs: readonly WireLabelPair[]): Labels {
  return pairs.map(({ name, value }) => ({ name, value }));
}

export const int64 = (n: bigint | number): Int64 => String(n);
