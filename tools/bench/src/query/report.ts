import type { TargetName } from '../bench-server';
import type { QuerySpec } from './queries';
import type { QueryRun } from './run-query';

/** Where a phase's queries read. */
export type PhaseName = 'ingester' | 'store';

export interface TimedQuery {
  readonly spec: QuerySpec;
  /** The runs of each server measured (logsvc always; loki when compared). */
  readonly runs: Partial<Record<TargetName, readonly QueryRun[]>>;
}

export interface PhaseResult {
  readonly phase: PhaseName;
  readonly queries: TimedQuery[];
}

export interface QueryBenchResult {
  readonly data: 'default' | 'mixed';
  readonly ingestedMB: number;
  readonly ingestedLines: number;
  readonly streams: number;
  readonly spanMinutes: number;
  readonly targets: readonly TargetName[];
  readonly phases: PhaseResult[];
}

export interface QuerySummary {
  readonly name: string;
  readonly runs: number;
  readonly medianMs: number;
  readonly minMs: number;
  /**
   * MB (10⁶ bytes) of log lines per second of wall time, at the median run: the whole data set
   * for queries that read every line (`scansAll`), else what the server says it scanned.
   */
  readonly mbPerSecond: number;
  readonly linesPerSecond: number;
  readonly scannedMB: number;
  readonly results: number;
  readonly valueSum: number;
  /** Server CPU over wall time (1.0 = one core busy), median over runs. */
  readonly cores: number | undefined;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function summarizeQuery(
  spec: QuerySpec,
  runs: readonly QueryRun[],
  dataMB?: number,
): QuerySummary {
  const medianMs = median(runs.map((r) => r.wallMs));
  const bytes = median(runs.map((r) => r.bytesProcessed));
  const lines = median(runs.map((r) => r.linesProcessed));
  const cpu = runs.filter((r) => r.cpuSeconds !== undefined);
  const mb = spec.scansAll && dataMB !== undefined ? dataMB : bytes / 1e6;
  const last = runs[runs.length - 1];
  return {
    name: spec.name,
    runs: runs.length,
    medianMs,
    minMs: Math.min(...runs.map((r) => r.wallMs)),
    mbPerSecond: mb / (medianMs / 1000),
    linesPerSecond: lines / (medianMs / 1000),
    scannedMB: bytes / 1e6,
    results: last?.results ?? 0,
    valueSum: last?.valueSum ?? 0,
    cores: cpu.length > 0 ? median(cpu.map((r) => r.cpuSeconds! / (r.wallMs / 1000))) : undefined,
  };
}

function pad(text: string, width: number, right = true): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

function phaseText(phase: PhaseName, compare: boolean): string {
  if (phase === 'ingester') return 'data still in the ingesters (no flush, no restart)';
  const logsvc = 'flushed; logsvc restarted with -querier.query-store-only (store-only reads)';
  return compare
    ? `${logsvc}, Loki reads its flushed chunks (after /flush, no chunk left in memory)`
    : logsvc;
}

function dataLine(result: QueryBenchResult): string {
  const kind = result.data === 'mixed' ? 'mixed nginx/JSON/logfmt ' : '';
  return (
    `data: ${result.ingestedMB.toFixed(0)} MB of lines, ${result.ingestedLines} lines, ` +
    `${result.streams} ${kind}streams over ${result.spanMinutes} min`
  );
}

function singleTable(result: QueryBenchResult, phase: PhaseResult): string[] {
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
  const rows = phase.queries.map((q) => {
    const r = summarizeQuery(q.spec, q.runs.logsvc ?? [], result.ingestedMB);
    return [
      pad(r.name, 28, false),
      pad(String(r.runs), 5),
      pad(r.medianMs.toFixed(0), 10),
      pad(r.minMs.toFixed(0), 8),
      pad(r.scannedMB.toFixed(1), 11),
      pad(r.mbPerSecond.toFixed(1), 8),
      pad(`${(r.linesPerSecond / 1e3).toFixed(0)} k`, 10),
      pad(r.cores === undefined ? '-' : r.cores.toFixed(2), 10),
      pad(String(r.results), 8),
    ].join(' ');
  });
  return [header, ...rows];
}

/** Whether two servers' sample values add up to the same sum (float noise aside). */
export function sameSum(a: QuerySummary, b: QuerySummary): boolean {
  const tolerance = 1e-6 * Math.max(1, Math.abs(a.valueSum), Math.abs(b.valueSum));
  return Math.abs(a.valueSum - b.valueSum) <= tolerance;
}

/** Whether two servers gave the same number of results and (for metrics) the same sum. */
export function sameAnswer(a: QuerySummary, b: QuerySummary): boolean {
  return a.results === b.results && sameSum(a, b);
}

function compareTable(result: QueryBenchResult, phase: PhaseResult): string[] {
  const header = [
    pad('query', 24, false),
    pad('runs', 5),
    pad('logsvc ms', 10),
    pad('loki ms', 9),
    pad('loki/logsvc', 12),
    pad('logsvc MB/s', 12),
    pad('loki MB/s', 10),
    pad('CPU logsvc', 11),
    pad('CPU loki', 9),
    '  answers (logsvc / loki)',
  ].join(' ');
  const rows = phase.queries.map((q) => {
    const a = summarizeQuery(q.spec, q.runs.logsvc ?? [], result.ingestedMB);
    const b = summarizeQuery(q.spec, q.runs.loki ?? [], result.ingestedMB);
    const cores = (s: QuerySummary) => (s.cores === undefined ? '-' : s.cores.toFixed(2));
    const answers = sameAnswer(a, b)
      ? `  same (${a.results})`
      : sameSum(a, b)
        ? `  same Σ, ${a.results} / ${b.results} series (ties ranked apart)`
        : `  DIFFER: ${a.results} / ${b.results} results, Σ ${a.valueSum} / ${b.valueSum}`;
    return [
      pad(a.name, 24, false),
      pad(`${a.runs}`, 5),
      pad(a.medianMs.toFixed(0), 10),
      pad(b.medianMs.toFixed(0), 9),
      pad(`${(b.medianMs / a.medianMs).toFixed(2)}×`, 12),
      pad(a.mbPerSecond.toFixed(1), 12),
      pad(b.mbPerSecond.toFixed(1), 10),
      pad(cores(a), 11),
      pad(cores(b), 9),
      answers,
    ].join(' ');
  });
  return [header, ...rows];
}

export function formatReport(result: QueryBenchResult): string {
  const out = [dataLine(result)];
  const compare = result.targets.includes('loki');
  for (const phase of result.phases) {
    out.push('', `phase ${phase.phase}: ${phaseText(phase.phase, compare)}`);
    if (compare) out.push('loki/logsvc > 1: logsvc is faster; MB/s of lines at the median run', '');
    else out.push('');
    out.push(...(compare ? compareTable(result, phase) : singleTable(result, phase)));
  }
  return [...out, ''].join('\n');
}

/** The result as plain JSON: data set, per-phase per-query summaries and every run. */
export function toJson(result: QueryBenchResult): unknown {
  return {
    data: result.data,
    ingestedMB: result.ingestedMB,
    ingestedLines: result.ingestedLines,
    streams: result.streams,
    spanMinutes: result.spanMinutes,
    targets: result.targets,
    phases: result.phases.map((p) => ({
      phase: p.phase,
      queries: p.queries.map((q) => ({
        name: q.spec.name,
        query: q.spec.query,
        instant: q.spec.instant === true,
        targets: Object.fromEntries(
          Object.entries(q.runs).map(([t, runs]) => [
            t,
            { summary: summarizeQuery(q.spec, runs, result.ingestedMB), runs },
          ]),
        ),
      })),
    })),
  };
}
