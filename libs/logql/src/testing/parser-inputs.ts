/**
 * Inputs of the parser properties: JSON lines made of random (key, value) pairs, and the
 * parser hints a `sum by (…)` grouping gives.
 */
import fc from 'fast-check';
import { newParserHints, type ParserHints } from '../log/parser-hints';

type Pairs = readonly (readonly [string, string])[];

const members = (ps: Pairs): string[] =>
  ps.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);

/**
 * A JSON object of the pairs (repeated keys kept), sometimes with one nested object, and
 * sometimes damaged near its end: hints may stop reading before the damage (Loki's
 * short-circuit), a full parse may not.
 */
export function pairsJsonLine(
  pairs: fc.Arbitrary<Pairs>,
  key: fc.Arbitrary<string>,
): fc.Arbitrary<string> {
  return fc
    .tuple(pairs, fc.option(fc.tuple(key, pairs), { nil: undefined }), fc.boolean())
    .map(([ps, nested, damaged]) => {
      const all = members(ps);
      if (nested !== undefined) {
        all.push(`${JSON.stringify(nested[0])}:{${members(nested[1]).join(',')}}`);
      }
      const text = `{${all.join(',')}}`;
      return damaged ? text.slice(0, Math.max(1, text.length - 3)) + ' tru}' : text;
    });
}

/** The hints of a metric query grouped `by (groups)` with no other stage naming labels. */
export function groupingHints(groups: string[]): ParserHints {
  return newParserHints({
    stageLabels: [],
    groups,
    without: false,
    noLabels: false,
    preserveError: false,
  });
}
