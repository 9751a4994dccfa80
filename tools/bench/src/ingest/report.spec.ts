import { describe, expect, it } from 'vitest';
import type { LoadResult } from './load';
import { DEFAULT_OPTIONS } from './options';
import { formatComparison, summarize } from './report';

const load = (mb: number): LoadResult => ({
  elapsedMs: 10_000,
  requests: 10,
  acceptedRequests: 10,
  acceptedLines: 1000,
  acceptedLineBytes: mb * 1e6,
  failures: {},
  exhausted: true,
});

const result = (mb: number, cpu: number, rssMiB: number) =>
  summarize(DEFAULT_OPTIONS, 0, mb * 1e6, load(mb), rssMiB * 1048576, cpu, '1');

describe('bench:ingest comparison', () => {
  it('puts logsvc beside Loki and VictoriaLogs per CPU-second, with peak RSS', () => {
    const text = formatComparison([
      { target: 'logsvc', result: result(200, 4, 400) },
      { target: 'loki', result: result(100, 10, 500) },
      { target: 'victorialogs', result: result(100, 5, 70) },
    ]);
    const [, header, row] = text.split('\n');
    expect(header).toContain('logsvc/loki per CPU-s');
    expect(header).toContain('logsvc/vl per CPU-s');
    // 50 MB per CPU-s against 10 and 20: 5× and 2.5×.
    expect(row).toMatch(/\s50\.0\s+10\.0\s+20\.0\s+5\.00×\s+2\.50×\s+400 MiB\s+500 MiB\s+70 MiB/);
  });

  it('still compares with Loki alone', () => {
    const text = formatComparison([
      { target: 'logsvc', result: result(200, 4, 400) },
      { target: 'loki', result: result(100, 10, 500) },
    ]);
    expect(text).not.toContain('vl');
    expect(text.split('\n')[2]).toContain('5.00×');
  });
});
