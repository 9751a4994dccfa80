/**
 * Loki's detected fields (`parseDetectedFields` and `parseDetectedFieldValues` in
 * `pkg/querier/queryrange/detected_fields.go`) over the entries a log query returned: structured
 * metadata, the labels the query's parsers set, and what each line gives as JSON or logfmt.
 */
import type { ResultStream } from '@logsvc/api';
import { humanizeBytes, humanizeParseBytes } from '@logsvc/gocompat';
import { type DetectedFieldType, detectFieldType } from './detected-field-type';
import { EntryFieldReader, type FieldParser } from './detected-entry-fields';

export interface DetectedField {
  readonly label: string;
  readonly type: DetectedFieldType;
  /** Distinct values seen (Loki estimates it with a HyperLogLog sketch; exact for small sets). */
  readonly cardinality: number;
  /** The parsers that found it; null for structured metadata only. */
  readonly parsers: FieldParser[] | null;
}

interface FieldState {
  type: DetectedFieldType;
  readonly values: Set<string>;
  readonly parsers: FieldParser[];
}

/**
 * The fields of `streams`, sorted by name, at most `limit` of them: the first by name. A
 * field's type is that of the last entry that has it: Loki assumes one type per stream and
 * re-detects it on every entry.
 */
export function detectFields(streams: readonly ResultStream[], limit: number): DetectedField[] {
  const fields = new Map<string, FieldState>();
  const fieldFor = (name: string): FieldState | undefined => {
    let field = fields.get(name);
    if (field === undefined) {
      field = { type: 'string', values: new Set(), parsers: [] };
      fields.set(name, field);
    }
    return field;
  };
  const add = (field: FieldState, values: readonly string[]): void => {
    field.type = detectFieldType(values[0]);
    for (const v of values) field.values.add(v);
  };

  for (const stream of streams) {
    const reader = new EntryFieldReader(stream.labels);
    for (const entry of stream.entries) {
      const { structuredMetadata, parsed, parser } = reader.read(entry);
      for (const [name, values] of sortedEntries(structuredMetadata)) {
        const field = fieldFor(name);
        if (field) add(field, values);
      }
      for (const [name, values] of sortedEntries(parsed)) {
        const field = fieldFor(name);
        if (!field) continue;
        if (!field.parsers.includes(parser)) field.parsers.push(parser);
        add(field, values);
      }
    }
  }

  return [...fields]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, limit)
    .map(([label, f]) => ({
      label,
      type: f.type,
      cardinality: f.values.size,
      parsers: f.parsers.length > 0 ? f.parsers : null,
    }));
}

/** Loki lists byte sizes in a form a query can use again: `10 MiB` → `10MB`. */
const BYTE_UNIT_SUFFIXES = [
  'b',
  'kib',
  'kb',
  'mib',
  'mb',
  'gib',
  'gb',
  'tib',
  'tb',
  'pib',
  'pb',
  'eib',
  'eb',
  'ki',
  'k',
  'mi',
  'm',
  'gi',
  'g',
  'ti',
  't',
  'pi',
  'p',
  'ei',
  'e',
];

function queryableValue(value: string): string {
  const lower = value.toLowerCase();
  if (!BYTE_UNIT_SUFFIXES.some((u) => lower.endsWith(u))) return value;
  try {
    return humanizeBytes(humanizeParseBytes(value)).replace(' ', '');
  } catch {
    return value;
  }
}

/**
 * The distinct values of field `name`, sorted. Entries are read until `limit` values are
 * found (an entry adds all of its values, so a few more can come).
 */
export function detectFieldValues(
  streams: readonly ResultStream[],
  name: string,
  limit: number,
): string[] {
  const values = new Set<string>();
  for (const stream of streams) {
    const reader = new EntryFieldReader(stream.labels);
    for (const entry of stream.entries) {
      if (values.size >= limit) break;
      const { structuredMetadata, parsed } = reader.read(entry);
      for (const v of structuredMetadata.get(name) ?? []) values.add(v);
      for (const v of parsed.get(name) ?? []) values.add(queryableValue(v));
    }
  }
  return [...values].sort();
}

function sortedEntries<V>(map: ReadonlyMap<string, V>): Array<[string, V]> {
  return [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
