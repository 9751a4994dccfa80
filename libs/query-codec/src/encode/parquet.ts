import { type Labels, type QueryResult } from '@logsvc/api';

/** Loki's media type for Parquet query results. */
export const PARQUET_TYPE = 'application/vnd.apache.parquet';

export interface LogRowsStream {
  readonly labels: Labels;
  /** `[timestamp ns, line]` in result order. */
  readonly entries: ReadonlyArray<readonly [bigint, string]>;
}

export interface SampleRowsSeries {
  readonly labels: Labels;
  readonly samples: ReadonlyArray<{ readonly ns: bigint; readonly value: number }>;
}

// hyparquet-writer is an ES module; the server is CommonJS, so it is loaded with import().
type Writer = typeof import('hyparquet-writer', { with: { 'resolution-mode': 'import' } });
let writer: Promise<Writer> | undefined;
const loadWriter = (): Promise<Writer> => (writer ??= import('hyparquet-writer'));

const labelsSchema = [
  { name: 'labels', repetition_type: 'REQUIRED', converted_type: 'MAP', num_children: 1 },
  { name: 'key_value', repetition_type: 'REPEATED', num_children: 2 },
  { name: 'key', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
  { name: 'value', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
] as const;

const timestampSchema = (unit: 'MILLIS' | 'NANOS') =>
  ({
    name: 'timestamp',
    type: 'INT64',
    repetition_type: 'REQUIRED',
    logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit },
  }) as const;

const mapOf = (labels: Labels) => labels.map((p) => ({ key: p.name, value: p.value }));

/**
 * Log query results as Loki's Parquet encoder lays them out: one row per entry with
 * `timestamp` (INT64 timestamp, ns, UTC), `labels` (MAP<string,string>) and `line` (string).
 */
export async function streamsToParquet(streams: readonly LogRowsStream[]): Promise<Buffer> {
  const timestamps: bigint[] = [];
  const labels: ReturnType<typeof mapOf>[] = [];
  const lines: string[] = [];
  for (const s of streams) {
    const map = mapOf(s.labels);
    for (const [ns, line] of s.entries) {
      timestamps.push(ns);
      labels.push(map);
      lines.push(line);
    }
  }
  const { parquetWriteBuffer } = await loadWriter();
  const out = parquetWriteBuffer({
    columnData: [
      { name: 'timestamp', data: timestamps, encoding: 'DELTA_BINARY_PACKED' },
      { name: 'labels', data: labels },
      { name: 'line', data: lines },
    ],
    schema: [
      { name: 'root', num_children: 3 },
      timestampSchema('NANOS'),
      ...labelsSchema,
      { name: 'line', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
    ] as never,
  });
  return Buffer.from(out);
}

/**
 * Metric query results as Loki's Parquet encoder lays them out: one row per sample with
 * `timestamp` (INT64 timestamp, ms, UTC), `labels` (MAP<string,string>) and `value` (double).
 */
export async function samplesToParquet(series: readonly SampleRowsSeries[]): Promise<Buffer> {
  const timestamps: bigint[] = [];
  const labels: ReturnType<typeof mapOf>[] = [];
  const values: number[] = [];
  for (const s of series) {
    const map = mapOf(s.labels);
    for (const sample of s.samples) {
      timestamps.push(sample.ns / 1_000_000n);
      labels.push(map);
      values.push(sample.value);
    }
  }
  const { parquetWriteBuffer } = await loadWriter();
  const out = parquetWriteBuffer({
    columnData: [
      { name: 'timestamp', data: timestamps, encoding: 'DELTA_BINARY_PACKED' },
      { name: 'labels', data: labels },
      { name: 'value', data: Float64Array.from(values) },
    ],
    schema: [
      { name: 'root', num_children: 3 },
      timestampSchema('MILLIS'),
      ...labelsSchema,
      { name: 'value', type: 'DOUBLE', repetition_type: 'REQUIRED' },
    ] as never,
  });
  return Buffer.from(out);
}

const msToNs = (ms: number): bigint => BigInt(Math.round(ms)) * 1_000_000n;

/** Any query answer as Parquet: log rows for streams, sample rows for the metric types. */
export function resultToParquet(result: QueryResult): Promise<Buffer> {
  switch (result.type) {
    case 'streams':
      return streamsToParquet(
        result.streams.map((s) => ({
          labels: s.labels,
          entries: s.entries.map((e) => [e[0], e[1]]),
        })),
      );
    case 'matrix':
      return samplesToParquet(
        result.series.map((s) => ({
          labels: s.labels,
          samples: s.points.map(([ms, value]) => ({ ns: msToNs(ms), value })),
        })),
      );
    case 'vector':
      return samplesToParquet(
        result.samples.map((s) => ({
          labels: s.labels,
          samples: [{ ns: msToNs(s.timestampMs), value: s.value }],
        })),
      );
    case 'scalar':
      return samplesToParquet([
        { labels: [], samples: [{ ns: msToNs(result.timestampMs), value: result.value }] },
      ]);
  }
}
