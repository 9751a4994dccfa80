import type { EntryLabelCategories, Labels } from '@logsvc/api';

/**
 * One entry as the client gets it: its labels after the pipeline (the stream's alone when
 * labels are categorized), its line after it.
 */
export interface TailEntry {
  readonly labels: Labels;
  readonly timestampNs: bigint;
  readonly line: string;
  /** With `categorizeLabels`: the entry's other labels. */
  readonly categories?: EntryLabelCategories;
}

/** An entry the client did not get because it read too slowly. */
export interface DroppedEntry {
  readonly labels: Labels;
  readonly timestampNs: bigint;
}

/** One message to the client: entries in time order, and what was dropped since the last. */
export interface TailFrame {
  readonly entries: readonly TailEntry[];
  readonly dropped: readonly DroppedEntry[];
}
