/** Generated rows for the read-path property tests of the ingester and the querier. */
import type { Labels } from '@logsvc/api';
import fc from 'fast-check';
import type { TestRow } from './tiny-ingester';

/** The timestamp the generated rows are near. */
export const T = 1_700_000_000_000_000_000n;

/** Small words so that needles hit some lines and miss others. */
const word = fc.constantFrom('GET', 'POST', 'err', 'ok', 'needle', 'a', 'é', '');

/** A row within a minute of T, sometimes with structured metadata. */
export const rowArb: fc.Arbitrary<TestRow> = fc.record({
  ts: fc.integer({ min: 0, max: 60 }).map((n) => T + BigInt(n)),
  line: fc.array(word, { maxLength: 4 }).map((ws) => ws.join(' ')),
  sm: fc.oneof(
    { weight: 3, arbitrary: fc.constant([] as Labels) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('a', 'b').map((v) => [{ name: 'trace_id', value: v }]),
    },
  ),
});

/**
 * Streams, each pushed as a few batches (some entries repeat, some come out of order): at most
 * `maxStreams` streams of 1 to 3 batches of 1 to 25 rows.
 */
export function streamsArb(maxStreams: number): fc.Arbitrary<TestRow[][][]> {
  return fc.array(
    fc.array(fc.array(rowArb, { minLength: 1, maxLength: 25 }), { minLength: 1, maxLength: 3 }),
    { minLength: 1, maxLength: maxStreams },
  );
}
