import { describe, expect, it } from 'vitest';
import { MemoryBudget, QueryMemoryLimitError } from './memory-budget';
import { runQuery, type RunQueryParams } from './query';
import { MemorySource } from './sources/memory-source';

const S = 1_000_000_000n;
const MiB = 1024 * 1024;

/** `lines` entries of one stream, one per second, each a short distinct line. */
function source(lines: number, streams = 1): MemorySource {
  return new MemorySource(
    Array.from({ length: streams }, (_, k) => ({
      labels: `{app="x", n="${k}"}`,
      tenant: 'a',
      entries: Array.from({ length: lines }, (_, i) => ({
        timestampNs: BigInt(i + 1) * S,
        line: `line ${k}-${i}`,
      })),
    })),
  );
}

const base = (lines: number, streams = 1): RunQueryParams => ({
  query: '{app="x"}',
  kind: 'range',
  startNs: 0n,
  endNs: BigInt(lines + 1) * S,
  limit: 5000,
  direction: 'backward',
  tenants: 'a',
  source: source(lines, streams),
});

const message =
  'the query exceeds the memory limit for its answer and working set (limit: 8MiB, max_query_memory_bytes): ' +
  'lower its limit, narrow its time range or selectors, or make line_format/label_format build less';

describe('query memory budget (max_query_memory_bytes)', () => {
  it('counts what is held and refuses past the limit with a 400 naming it', () => {
    const sut = new MemoryBudget(100);
    sut.charge(60);
    sut.charge(-20);
    sut.charge(60);
    expect(sut.held).toBe(100);
    expect(() => sut.charge(1)).toThrow(QueryMemoryLimitError);
    const over = new MemoryBudget(8 * MiB);
    expect(() => over.charge(9 * MiB)).toThrow(
      expect.objectContaining({ kind: 'bad_request', httpStatus: 400, message }),
    );
    expect(() => new MemoryBudget(0).charge(1e15)).not.toThrow();
  });

  it('fails a log query whose formatted lines together pass the budget, not only one line', async () => {
    // Each line is under the per-execution template budget (1 MiB); 5000 of them are 5 GB.
    const query = '{app="x"} | line_format "{{ repeat 1000000 \\"x\\" }}"';
    const params = { ...base(3000), query, maxMemoryBytes: 8 * MiB };
    await expect(runQuery(params)).rejects.toMatchObject({ kind: 'bad_request', message });
    // The same lines, few enough, are answered.
    const few = await runQuery({ ...params, limit: 5 });
    expect(few.result.type === 'streams' && few.result.streams[0]!.entries.length).toBe(5);
  });

  it('counts the line each merged stream holds (many streams, limit 1)', async () => {
    const query = '{app="x"} | line_format "{{ repeat 1000000 \\"x\\" }}"';
    const params = { ...base(2, 20), query, limit: 1, maxMemoryBytes: 8 * MiB };
    await expect(runQuery(params)).rejects.toMatchObject({ message });
    await expect(runQuery({ ...params, maxMemoryBytes: 64 * MiB })).resolves.toBeDefined();
  });

  it('fails a metric query whose series labels pass the budget while the series are built', async () => {
    // Every line makes its own series with a 500 KB label: 3000 of them are 1.5 GB of labels.
    const query =
      'count_over_time({app="x"} | label_format x="{{ __line__ }}{{ repeat 500000 \\"y\\" }}" [1h])';
    const params: RunQueryParams = {
      ...base(3000),
      query,
      kind: 'instant',
      maxSeries: Infinity,
      maxMemoryBytes: 8 * MiB,
    };
    await expect(runQuery(params)).rejects.toMatchObject({ kind: 'bad_request', message });
  });

  it('counts the samples an unwrapped range holds', async () => {
    const lines = 20_000;
    const src = new MemorySource([
      {
        labels: '{app="x"}',
        tenant: 'a',
        entries: Array.from({ length: lines }, (_, i) => ({
          timestampNs: BigInt(i + 1) * 1_000_000n,
          line: `v=${i}`,
        })),
      },
    ]);
    const params: RunQueryParams = {
      query: 'sum_over_time({app="x"} | logfmt | unwrap v [1h])',
      kind: 'instant',
      startNs: 0n,
      endNs: 3600n * S,
      limit: 100,
      direction: 'backward',
      tenants: 'a',
      source: src,
      maxMemoryBytes: 64 * 1024,
    };
    await expect(runQuery(params)).rejects.toBeInstanceOf(QueryMemoryLimitError);
    await expect(runQuery({ ...params, maxMemoryBytes: 8 * MiB })).resolves.toBeDefined();
  });
});
