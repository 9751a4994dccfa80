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
    warmupRuns: 1,
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

describe('bench:query report with VictoriaLogs', () => {
  const withVl = (logsvc: QueryRun[], vl: QueryRun[], check: 'sum' | 'none'): QueryBenchResult => ({
    ...compared(logsvc, logsvc),
    targets: ['logsvc', 'victorialogs'],
    phases: [
      {
        phase: 'store',
        queries: [
          {
            spec: {
              ...spec('line filter |= count'),
              logsql: { endpoint: 'stats_query', query: '*', check },
            },
            runs: { logsvc, victorialogs: vl },
          },
        ],
      },
    ],
  });
  const cpuRuns = (ms: number, cpu: number, sum: number): QueryRun[] => [
    {
      wallMs: ms,
      bytesProcessed: 0,
      linesProcessed: 0,
      results: 1,
      valueSum: sum,
      cpuSeconds: cpu,
    },
  ];

  it('prints the wall and CPU-second ratios and compares sums of counts', () => {
    const text = formatReport(withVl(cpuRuns(100, 0.1, 1797), cpuRuns(50, 0.02, 1797), 'sum'));
    const row = text.split('\n').find((l) => l.startsWith('line filter |= count'))!;
    expect(row).toMatch(/\s100\s+50\s+0\.50×/);
    expect(row).toContain('0.20×');
    expect(row).toContain('same Σ 1797');
    expect(text).toContain('VictoriaLogs after /internal/force_flush');
    const differ = formatReport(withVl(cpuRuns(100, 0.1, 1797), cpuRuns(50, 0.02, 907), 'sum'));
    expect(differ).toContain('DIFFER: Σ 1797 / 907');
  });

  it('does not compare answers to a different question', () => {
    const text = formatReport(withVl(cpuRuns(100, 0.1, 5), cpuRuns(50, 0.02, 7), 'none'));
    expect(text).toContain('(not compared)');
    expect(text).not.toContain('DIFFER');
  });
});

describe('bench:query report of data at rest', () => {
  it('prints every data directory after the flush, and without its WAL', () => {
    const result = {
      ...compared(runs([10], 5, 42), runs([10], 5, 42)),
      atRest: [
        { target: 'logsvc' as const, bytes: 30e6, withoutWal: 15e6 },
        { target: 'loki' as const, bytes: 84e6, withoutWal: 84e6 },
      ],
    };
    expect(formatReport(result)).toContain(
      'data at rest after the flush, for 50.0 MB of lines: logsvc 30.0 MB (15.0 MB without its WAL), loki 84.0 MB',
    );
  });
});
