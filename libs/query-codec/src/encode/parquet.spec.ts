import { parseLabels } from '@logsvc/api';
import { describe, expect, it } from 'vitest';
import { samplesToParquet, streamsToParquet } from './parquet';

// hyparquet is an ES module; this file compiles as CommonJS, so it is loaded with import().
const reader = () => import('hyparquet');

const arrayBuffer = (b: Buffer): ArrayBuffer =>
  b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

describe('Parquet encoding', () => {
  it('writes one row per log entry with ns timestamps, a label map and the line', async () => {
    const file = await streamsToParquet([
      { labels: parseLabels('{app="a", env="x"}'), entries: [[1_700_000_000_123_456_789n, 'one']] },
      {
        labels: parseLabels('{app="b"}'),
        entries: [
          [5n, 'two'],
          [4n, 'three'],
        ],
      },
    ]);
    const ab = arrayBuffer(file);
    const { parquetMetadata, parquetReadObjects, parquetSchema } = await reader();
    const rows = await parquetReadObjects({ file: ab });
    expect(rows).toHaveLength(3);
    expect(rows[0].line).toBe('one');
    expect(rows[0].labels).toEqual({ app: 'a', env: 'x' });
    expect(rows[2].labels).toEqual({ app: 'b' });
    const schema = parquetSchema(parquetMetadata(ab));
    const ts = schema.children.find((c) => c.element.name === 'timestamp')!.element;
    expect(ts.logical_type).toMatchObject({ type: 'TIMESTAMP', unit: 'NANOS' });
    expect(schema.children.map((c) => c.element.name)).toEqual(['timestamp', 'labels', 'line']);
  });

  it('writes one row per sample with ms timestamps and double values', async () => {
    const file = await samplesToParquet([
      { labels: parseLabels('{app="a"}'), samples: [{ ns: 2_000_000_000n, value: 1.5 }] },
    ]);
    const ab = arrayBuffer(file);
    const { parquetMetadata, parquetReadObjects, parquetSchema } = await reader();
    const rows = await parquetReadObjects({ file: ab });
    expect(rows).toHaveLength(1);
    expect(rows[0].value).toBe(1.5);
    expect(rows[0].labels).toEqual({ app: 'a' });
    const schema = parquetSchema(parquetMetadata(ab));
    const ts = schema.children.find((c) => c.element.name === 'timestamp')!.element;
    expect(ts.logical_type).toMatchObject({ type: 'TIMESTAMP', unit: 'MILLIS' });
  });
});
