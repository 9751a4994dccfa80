import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bestK } from './best-k';

describe('bestK', () => {
  it('picks what a stable sort and a slice pick, ties in their given order', () => {
    fc.assert(
      fc.property(
        // Few distinct values, so ties are common; NaN ranks last as topk's comparator does.
        fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constant(Number.NaN)), {
          maxLength: 60,
        }),
        fc.integer({ min: 1, max: 20 }),
        fc.boolean(),
        (values, k, bottom) => {
          const rank = (a: number, b: number): number => {
            const x = values[a];
            const y = values[b];
            if (Number.isNaN(x) !== Number.isNaN(y)) return Number.isNaN(x) ? 1 : -1;
            if (Number.isNaN(x) || x === y) return 0;
            return (bottom ? x < y : x > y) ? -1 : 1;
          };
          const members = values.map((_, i) => i);
          const expected = [...members].sort(rank).slice(0, k);
          expect(bestK(members, k, rank)).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});
