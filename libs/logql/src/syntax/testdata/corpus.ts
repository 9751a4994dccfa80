/**
 * The LogQL test corpus: queries written from Loki's documentation and parser tests, with the
 * expected outcome (see CorpusEntry).
 */
import type { CorpusEntry } from './corpus-entry';
import { labelFilters, lineFilters, selectors, stages } from './corpus-log';
import { binaryOps, generated, rangeAggs, vectorAggs } from './corpus-metric';

export type { CorpusEntry } from './corpus-entry';

export const CORPUS: readonly CorpusEntry[] = [
  ...selectors,
  ...lineFilters,
  ...stages,
  ...labelFilters,
  ...rangeAggs,
  ...vectorAggs,
  ...binaryOps,
  ...generated(),
];
