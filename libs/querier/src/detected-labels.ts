/**
 * Loki's detected labels (`DetectedLabels` and `countLabelsAndCardinality` in
 * `pkg/querier/querier.go`): the stream labels worth offering as a Logs Drilldown tab, each
 * with its number of distinct values.
 */
import { goParseFloat } from '@logsvc/gocompat';

export interface DetectedLabel {
  readonly label: string;
  readonly cardinality: number;
}

/** Kept whenever they have values, even when every value looks like an ID. */
export const STATIC_LABELS: ReadonlySet<string> = new Set([
  'cluster',
  'namespace',
  'instance',
  'pod',
]);

const isHex = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/** google/uuid's `Parse`: 36 chars with dashes, `{...}` (any first char), `urn:uuid:...`, 32 hex. */
export function isUuid(text: string): boolean {
  let b = Buffer.from(text, 'utf8');
  switch (b.length) {
    case 36:
      break;
    case 45:
      if (b.subarray(0, 9).toString('latin1').toLowerCase() !== 'urn:uuid:') return false;
      b = b.subarray(9);
      break;
    case 38:
      b = b.subarray(1);
      break;
    case 32:
      return b.every(isHex);
    default:
      return false;
  }
  for (let i = 0; i < 36; i++) {
    const dash = i === 8 || i === 13 || i === 18 || i === 23;
    if (dash ? b[i] !== 0x2d : !isHex(b[i])) return false;
  }
  return true;
}

/** Loki's `containsAllIDTypes`: every value is a number or a UUID (true for no values). */
function allIds(values: readonly string[]): boolean {
  return values.every((v) => goParseFloat(v) !== undefined || isUuid(v));
}

/**
 * The labels of `values` (label name → its distinct values) that Drilldown should offer,
 * sorted by name: a label is left out when all its values are numbers or UUIDs (or it has
 * none), unless it is one of `STATIC_LABELS` with values.
 */
export function detectLabels(values: ReadonlyMap<string, readonly string[]>): DetectedLabel[] {
  const out: DetectedLabel[] = [];
  for (const [label, vals] of values) {
    const keep = (STATIC_LABELS.has(label) && vals.length > 0) || !allIds(vals);
    if (keep) out.push({ label, cardinality: new Set(vals).size });
  }
  return out.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
}
