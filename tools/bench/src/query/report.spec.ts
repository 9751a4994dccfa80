import { describe, expect, it } from 'vitest';
import type { QuerySpec } from './queries';
import { formatReport, type QueryBenchResult } from './report';
import type { QueryRun } from './run-query';

const spec = (name: string): QuerySpec => ({
  name,
  query: 'sum(count_over_time({env=~".+"}[3h]))',
  startNs: 0n,
  endNs: 1n,
  instant: true,
  scansAll: true,
});

const runs = (ms: number[], results: number, valueSum: number): QueryRun[] =>
  ms.map((wallMs) => ({ wallMs, bytesProcessed: 1e6, linesProcessed: 1e4, results, valueSum }));

function compared(
  logsvc: QueryRun[],
  loki: QueryRun[],
  name = 'logfmt grouped count',
): QueryBenchResult {
  return {
    data: 'mixed',
    ingestedMB: 50,
    ingestedLines: 250_000,
    streams: 100,
    spanMinutes: 60,
    targets: ['logsvc', 'loki'],
    phases: [{ phase: 'ingester', queries: [{ spec: spec(name), runs: { logsvc, loki } }] }],
  };
}

describe('bench:query report with Loki', () => {
  it('prints both medians, the ratio and MB/s of the whole data set', () => {
    const text = formatReport(
      compared(runs([900, 1000, 1100], 5, 42), runs([2000, 2100, 1900], 5, 42)),
    );
    const row = text.split('\n').find((l) => l.startsWith('logfmt grouped count'))!;
    expect(row).toMatch(/\s1000\s+2000\s+2\.00×\s+50\.0\s+25\.0\s/);
    expect(row).toContain('same (5)');
    expect(text).toContain('phase ingester: data still in the ingesters');
  });

  it('flags answers that differ, and tells topk ties from real differences', () => {
    const differ = formatReport(compared(runs([10], 5, 42), runs([10], 5, 43)));
    expect(differ).toContain('DIFFER: 5 / 5 results, Σ 42 / 43');
    const ties = formatReport(compared(runs([10], 86, 25.87), runs([10], 87, 25.87)));
    expect(ties).toContain('same Σ, 86 / 87 series');
  });
});
