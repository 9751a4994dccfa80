import type { QuerySpec } from './queries';
import type { QueryRun } from './run-query';

export interface QueryBenchResult {
  readonly ingestedMB: number;
  readonly ingestedLines: number;
  readonly streams: number;
  readonly spanMinutes: number;
  readonly queries: Array<{ readonly spec: QuerySpec; readonly runs: readonly QueryRun[] }>;
}

export interface QuerySummary {
  readonly name: string;
  readonly runs: number;
  readonly medianMs: number;
  readonly minMs: number;
  /** MB (10⁶ bytes) of log lines scanned per second of wall time, at the median run. */
  readonly mbPerSecond: number;
  readonly linesPerSecond: number;
  readonly scannedMB: number;
  readonly results: number;
  /** Server CPU over wall time (1.0 = one core busy), median over runs. */
  readonly cores: number | undefined;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function summarizeQuery(spec: QuerySpec, runs: readonly QueryRun[]): QuerySummary {
  const medianMs = median(runs.map((r) => r.wallMs));
  const bytes = median(runs.map((r) => r.bytesProcessed));
  const lines = median(runs.map((r) => r.linesProcessed));
  const cpu = runs.filter((r) => r.cpuSeconds !== undefined);
  return {
    name: spec.name,
    runs: runs.length,
    medianMs,
    minMs: Math.min(...runs.map((r) => r.wallMs)),
    mbPerSecond: bytes / 1e6 / (medianMs / 1000),
    linesPerSecond: lines / (medianMs / 1000),
    scannedMB: bytes / 1e6,
    results: runs[runs.length - 1]?.results ?? 0,
    cores: cpu.length > 0 ? median(cpu.map((r) => r.cpuSeconds! / (r.wallMs / 1000))) : undefined,
  };
}

function pad(text: string, width: number, right = true): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

export function formatReport(result: QueryBenchResult): string {
  const rows = result.queries.map((q) => summarizeQuery(q.spec, q.runs));
  const head =
    `data: ${result.ingestedMB.toFixed(0)} MB of lines, ${result.ingestedLines} lines, ` +
    `${result.streams} streams over ${result.spanMinutes} min, flushed; store-only reads`;
  const header = [
    pad('query', 28, false),
    pad('runs', 5),
    pad('median ms', 10),
    pad('min ms', 8),
    pad('scanned MB', 11),
    pad('MB/s', 8),
    pad('lines/s', 10),
    pad('CPU cores', 10),
    pad('results', 8),
  ].join(' ');
  const lines = rows.map((r) =>
    [
      pad(r.name, 28, false),
      pad(String(r.runs), 5),
      pad(r.medianMs.toFixed(0), 10),
      pad(r.minMs.toFixed(0), 8),
      pad(r.scannedMB.toFixed(1), 11),
      pad(r.mbPerSecond.toFixed(1), 8),
      pad(`${(r.linesPerSecond / 1e3).toFixed(0)} k`, 10),
      pad(r.cores === undefined ? '-' : r.cores.toFixed(2), 10),
      pad(String(r.results), 8),
    ].join(' '),
  );
  return [head, '', header, ...lines, ''].join('\n');
}

/** The result as plain JSON: data set, per-query summary and every run. */
export function toJson(result: QueryBenchResult): unknown {
  return {
    ingestedMB: result.ingestedMB,
    ingestedLines: result.ingestedLines,
    streams: result.streams,
    spanMinutes: result.spanMinutes,
    queries: result.queries.map((q) => ({
      query: q.spec.query,
      summary: summarizeQuery(q.spec, q.runs),
      runs: q.runs,
    })),
  };
}
