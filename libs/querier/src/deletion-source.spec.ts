import { parseLabels } from '@logsvc/api';
import { MemChunk } from '@logsvc/chunk';
import { type LogSource, runQuery } from '@logsvc/logql';
import { describe, expect, it } from 'vitest';
import { DeletionFilteringSource } from './deletion-source';

const S = 1_000_000_000n;
const T0 = BigInt(Date.UTC(2024, 2, 20)) * 1_000_000n;

describe('DeletionFilteringSource', () => {
  it('keeps counts over time exact: a count never adds up the meta of blocks holding deleted lines', async () => {
    const chunk = new MemChunk({ blockSize: 64, targetSize: 0 });
    for (let i = 0; i < 30; i++) chunk.append(T0 + BigInt(i) * S, Buffer.from(`line ${i}`), []);
    const labels = parseLabels('{app="api"}');
    const inner: LogSource = {
      select: (p) =>
        Promise.resolve([{ labels, entries: chunk.iterator(p.fromNs, p.throughNs, p.direction) }]),
    };
    const source = new DeletionFilteringSource(inner, {
      forTenant: () =>
        Promise.resolve({
          forStream: () => (_ts: bigint, line: Buffer) => line.toString().endsWith('7'),
        }),
    });
    const at = T0 + 60n * S;
    const query = { kind: 'instant', startNs: at, endNs: at, limit: 100, tenants: 't' } as const;
    const count = async (s: LogSource) => {
      const q = 'sum(count_over_time({app="api"}[1h]))';
      const { result } = await runQuery({ ...query, query: q, direction: 'forward', source: s });
      return result.type === 'vector' ? result.samples.map((x) => x.value) : result;
    };
    expect(await count(inner)).toEqual([30]);
    // Lines 7, 17 and 27 are deleted.
    expect(await count(source)).toEqual([27]);
  });
});
