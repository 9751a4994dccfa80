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
  /** Untimed runs of each query on each server before its timed runs. */
  readonly warmupRuns: number;
  readonly targets: readonly TargetName[];
  readonly phases: PhaseResult[];
  /** Data directories after the flush (store phase only). */
  atRest?: readonly AtRest[];
}

/** A server's data directory after the flush, in bytes. */
export interface AtRest {
  readonly target: TargetName;
  readonly bytes: number;
  /** Without the WAL (a directory named `wal`), which logsvc and Loki keep until it is cut. */
  readonly withoutWal: number;
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

function phaseText(phase: PhaseName, targets: readonly TargetName[]): string {
  if (phase === 'ingester') return 'data still in the ingesters (no flush, no restart)';
  let text = 'flushed; logsvc restarted with -querier.query-store-only (store-only reads)';
  if (targets.includes('loki'))
    text += ', Loki reads its flushed chunks (after /flush, no chunk left in memory)';
  if (targets.includes('victorialogs')) text += ', VictoriaLogs after /internal/force_flush';
  return text;
}

function dataLine(result: QueryBenchResult): string {
  const kind = result.data === 'mixed' ? 'mixed nginx/JSON/logfmt ' : '';
  return (
    `data: ${result.ingestedMB.toFixed(0)} MB of lines, ${result.ingestedLines} lines, ` +
    `${result.streams} ${kind}streams over ${result.spanMinutes} min; ` +
    `${result.warmupRuns} untimed warm-up run${result.warmupRuns === 1 ? '' : 's'} of each query per server`
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

/** Short column names of the servers. */
const SHORT: Record<TargetName, string> = { logsvc: 'logsvc', loki: 'loki', victorialogs: 'vl' };

/** Median server CPU seconds of a query's runs, when measured. */
function medianCpu(runs: readonly QueryRun[]): number | undefined {
  const cpu = runs.filter((r) => r.cpuSeconds !== undefined).map((r) => r.cpuSeconds!);
  return cpu.length > 0 ? median(cpu) : undefined;
}

/** How a peer's answer compares with logsvc's; `unchecked` when they answer different questions. */
function answerText(spec: QuerySpec, a: QuerySummary, b: QuerySummary, peer: TargetName): string {
  if (peer === 'victorialogs' && spec.logsql?.check === 'none')
    return `${b.results} (not compared)`;
  if (peer === 'victorialogs' && spec.logsql?.check === 'sum')
    return sameSum(a, b) ? `same Σ ${a.valueSum}` : `DIFFER: Σ ${a.valueSum} / ${b.valueSum}`;
  if (sameAnswer(a, b)) return `same (${a.results})`;
  if (sameSum(a, b)) return `same Σ, ${a.results} / ${b.results} series (ties ranked apart)`;
  return `DIFFER: ${a.results} / ${b.results} results, Σ ${a.valueSum} / ${b.valueSum}`;
}

function compareTable(result: QueryBenchResult, phase: PhaseResult): string[] {
  const peers = result.targets.filter((t) => t !== 'logsvc');
  const header = [
    pad('query', 24, false),
    pad('runs', 5),
    pad('logsvc ms', 10),
    ...peers.flatMap((p) => [pad(`${SHORT[p]} ms`, 9), pad(`${SHORT[p]}/logsvc`, 12)]),
    pad('logsvc MB/s', 12),
    ...peers.map((p) => pad(`${SHORT[p]} MB/s`, 10)),
    pad('CPU logsvc', 11),
    ...peers.map((p) => pad(`CPU ${SHORT[p]}`, 9)),
    ...peers.map((p) => pad(`${SHORT[p]}/logsvc CPU-s`, 17)),
    `  answers (logsvc / ${peers.map((p) => SHORT[p]).join(', ')})`,
  ].join(' ');
  const cores = (s: QuerySummary) => (s.cores === undefined ? '-' : s.cores.toFixed(2));
  const rows = phase.queries.map((q) => {
    const a = summarizeQuery(q.spec, q.runs.logsvc ?? [], result.ingestedMB);
    const cpuA = medianCpu(q.runs.logsvc ?? []);
    const b = peers.map((p) => summarizeQuery(q.spec, q.runs[p] ?? [], result.ingestedMB));
    const cpuRatio = peers.map((p) => {
      const cpuB = medianCpu(q.runs[p] ?? []);
      return cpuA === undefined || cpuB === undefined || cpuA === 0
        ? '-'
        : `${(cpuB / cpuA).toFixed(2)}×`;
    });
    return [
      pad(a.name, 24, false),
      pad(`${a.runs}`, 5),
      pad(a.medianMs.toFixed(0), 10),
      ...b.flatMap((s) => [
        pad(s.medianMs.toFixed(0), 9),
        pad(`${(s.medianMs / a.medianMs).toFixed(2)}×`, 12),
      ]),
      pad(a.mbPerSecond.toFixed(1), 12),
      ...b.map((s) => pad(s.mbPerSecond.toFixed(1), 10)),
      pad(cores(a), 11),
      ...b.map((s) => pad(cores(s), 9)),
      ...cpuRatio.map((r) => pad(r, 17)),
      `  ${peers.map((p, i) => answerText(q.spec, a, b[i], p)).join('; ')}`,
    ].join(' ');
  });
  return [header, ...rows];
}

function atRestLine(result: QueryBenchResult): string {
  const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
  const parts = (result.atRest ?? []).map(
    (a) =>
      `${a.target} ${mb(a.bytes)}` +
      (a.withoutWal !== a.bytes ? ` (${mb(a.withoutWal)} without its WAL)` : ''),
  );
  return `data at rest after the flush, for ${result.ingestedMB.toFixed(1)} MB of lines: ${parts.join(', ')}`;
}

export function formatReport(result: QueryBenchResult): string {
  const out = [dataLine(result)];
  const compare = result.targets.length > 1;
  const peers = result.targets.filter((t) => t !== 'logsvc').map((t) => SHORT[t]);
  for (const phase of result.phases) {
    out.push('', `phase ${phase.phase}: ${phaseText(phase.phase, result.targets)}`);
    if (compare)
      out.push(
        `${peers.map((p) => `${p}/logsvc`).join(', ')} > 1: logsvc is faster (wall time, and ` +
          'server CPU seconds); MB/s of lines at the median run',
        '',
      );
    else out.push('');
    out.push(...(compare ? compareTable(result, phase) : singleTable(result, phase)));
  }
  if (result.atRest !== undefined) out.push('', atRestLine(result));
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
    warmupRuns: result.warmupRuns,
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
