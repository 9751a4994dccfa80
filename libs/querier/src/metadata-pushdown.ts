import type { Labels } from '@logsvc/api';
import type { CursorOptions, MetadataEquals } from '@logsvc/chunk';

/**
 * A stream's cursor options: `base` plus the query's structured-metadata equalities whose
 * name the stream has no label of (for those, the label filter tests the stream label, and
 * metadata of that name is offered as `<name>_extracted`).
 */
export function streamCursorOptions(
  base: CursorOptions,
  labels: Labels,
  wanted: readonly MetadataEquals[] | undefined,
): CursorOptions {
  if (wanted === undefined || wanted.length === 0) return base;
  const kept = wanted.filter((w) => !labels.some((l) => l.name === w.name));
  return kept.length === 0 ? base : { ...base, metadataEquals: kept };
}
